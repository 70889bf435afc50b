package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RolesTest {

    @Test
    void aUserHoldsEveryRoleThatListsIt() {
        Roles roles = Roles.parse(List.of("# Artemis's form", "admins = alice", "apps = alice, bob ,carol", ""), "roles");
        assertEquals(Set.of("admins", "apps"), roles.of("alice"));
        assertEquals(Set.of("apps"), roles.of("bob"));
        assertEquals(Set.of("apps"), roles.of("carol"));
        assertEquals(Set.of(), roles.of("dave"));
    }

    @Test
    void aMalformedLineOrARoleListedTwiceIsRefusedNamingTheLine() {
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Roles.parse(List.of("apps = a", "apps = b"), "roles"));
        assertEquals("roles line 2: role 'apps' is listed twice", twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Roles.parse(List.of("no equals sign"), "roles"));
    }
}

package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PermissionsTest {

    private static Permissions of(String... lines) {
        return Permissions.parse(List.of(lines), "permissions");
    }

    @Test
    void withoutAFileEverythingIsAllowed() {
        assertTrue(Permissions.open().allows(Set.of(), Operation.DELETE_DESTINATION, "anything"));
    }

    @Test
    void withAFileWhatNoRuleAllowsIsRefused() {
        Permissions p = of("# only sending", "send orders.# = app");
        assertTrue(p.allows(Set.of("app"), Operation.SEND, "orders.eu"));
        assertFalse(p.allows(Set.of("app"), Operation.CONSUME, "orders.eu"), "no consume rule");
        assertFalse(p.allows(Set.of("other"), Operation.SEND, "orders.eu"), "another role");
        assertFalse(p.allows(Set.of("app"), Operation.SEND, "billing"), "no matching pattern");
        assertFalse(of().allows(Set.of("app"), Operation.SEND, "orders"), "an empty file allows nothing");
    }

    @Test
    void theMostSpecificMatchingRuleDecides() {
        Permissions p = of("send # = everyone-role", "send secret.# = ops", "send secret.public = everyone-role");
        assertTrue(p.allows(Set.of("everyone-role"), Operation.SEND, "news"));
        assertFalse(p.allows(Set.of("everyone-role"), Operation.SEND, "secret.keys"), "secret.# is more specific");
        assertTrue(p.allows(Set.of("ops"), Operation.SEND, "secret.keys"));
        assertTrue(p.allows(Set.of("everyone-role"), Operation.SEND, "secret.public"), "the literal is more specific");
        assertFalse(p.allows(Set.of("ops"), Operation.SEND, "secret.public"), "a more specific rule does not inherit");
    }

    @Test
    void equallySpecificRulesAddTheirRoles() {
        Permissions p = of("consume orders.* = a", "consume *.eu = b");
        assertTrue(p.allows(Set.of("a"), Operation.CONSUME, "orders.eu"));
        assertTrue(p.allows(Set.of("b"), Operation.CONSUME, "orders.eu"));
    }

    @Test
    void theRoleStarIsEveryConnectionAnonymousIncluded() {
        assertTrue(of("createTemporary # = *").allows(Set.of(), Operation.CREATE_TEMPORARY, "TEMP.1"));
    }

    @Test
    void operationNamesAreThoseOfTheReadme() {
        Permissions p = of("createDurableSubscription t = r", "deleteDurableSubscription t = r", "browse q = r",
                "createDestination q = r", "deleteDestination q = r", "admin # = r");
        assertTrue(p.allows(Set.of("r"), Operation.CREATE_DURABLE_SUBSCRIPTION, "t"));
        assertTrue(p.allows(Set.of("r"), Operation.DELETE_DURABLE_SUBSCRIPTION, "t"));
        assertTrue(p.allows(Set.of("r"), Operation.BROWSE, "q"));
        assertTrue(p.allows(Set.of("r"), Operation.CREATE_DESTINATION, "q"));
        assertTrue(p.allows(Set.of("r"), Operation.DELETE_DESTINATION, "q"));
        assertTrue(p.allows(Set.of("r"), Operation.ADMIN, "#"));
    }

    @Test
    void aMalformedLineIsRefusedNamingIt() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> of("send q = r", "publish q = r"));
        assertTrue(unknown.getMessage().startsWith("permissions line 2: unknown operation 'publish'"),
                unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> of("send = r"));
        assertThrows(IllegalArgumentException.class, () -> of("send q r"));
        IllegalArgumentException admin = assertThrows(IllegalArgumentException.class, () -> of("admin orders = r"));
        assertEquals("permissions line 1: admin is broker-wide: its pattern is #, not orders", admin.getMessage());
    }
}

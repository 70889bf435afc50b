package io.ramjet.server.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

class CertificateUsersTest {

    private static final CertificateUsers USERS = CertificateUsers.parse(List.of("# who is who",
            "alice = CN=alice, O=Example", "", "bob=cn=Bob,o=Example"), "test");

    @Test
    void aSubjectMatchesWhateverItsSpacingAndAttributeCase() {
        assertEquals(Optional.of("alice"), USERS.userOf(new X500Principal("CN=alice,O=Example")));
        assertEquals(Optional.of("bob"), USERS.userOf(new X500Principal("CN=Bob, O=Example")));
    }

    @Test
    void anUnlistedSubjectIsNoUser() {
        assertEquals(Optional.empty(), USERS.userOf(new X500Principal("CN=alice,O=Elsewhere")));
    }

    @Test
    void aMalformedLineRefusesTheFileNamingTheLine() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> CertificateUsers.parse(List.of("alice = CN=alice", "CN=bob"), "users.txt"));
        assertTrue(refused.getMessage().startsWith("users.txt line 2"), refused.getMessage());
    }

    @Test
    void aSubjectListedTwiceRefusesTheFile() {
        assertThrows(IllegalArgumentException.class,
                () -> CertificateUsers.parse(List.of("alice = CN=alice", "eve = cn=alice"), "users.txt"));
    }
}

package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JAAS entry of a login configuration file, with a login module of the tests' own. */
class JaasLoginTest {

    @TempDir
    Path dir;

    private Path config() throws Exception {
        return Files.writeString(dir.resolve("login.config"), """
                ramjet {
                    io.ramjet.server.broker.security.TestLoginModule required
                        user="carol" password="jaas-password" role="apps";
                };
                """);
    }

    @Test
    void theModuleDecidesAndItsPrincipalsGiveTheUserAndRoles() throws Exception {
        Roles fromFile = Roles.parse(List.of("auditors = carol"), "roles");
        JaasLogin login = JaasLogin.of(config(), "ramjet", () -> fromFile);
        assertEquals(Optional.of(new Identity("carol", Set.of("apps", "auditors"))),
                login.login("carol", "jaas-password".toCharArray(), null));
        assertTrue(login.login("carol", "wrong".toCharArray(), null).isEmpty());
        assertTrue(login.login("dave", "jaas-password".toCharArray(), null).isEmpty());
    }

    @Test
    void aCertificateSubjectReachesTheModule() throws Exception {
        JaasLogin login = JaasLogin.of(config(), "ramjet", Roles::none);
        assertEquals(Optional.of(new Identity("device-7", Set.of("apps"))),
                login.login(null, null, "CN=device-7"));
    }

    @Test
    void anEntryTheFileLacksRefusesTheStart() throws Exception {
        Path file = config();
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> JaasLogin.of(file, "other", Roles::none));
        assertTrue(missing.getMessage().contains("no entry 'other'"), missing.getMessage());
    }
}

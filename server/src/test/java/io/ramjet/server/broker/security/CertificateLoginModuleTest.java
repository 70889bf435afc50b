package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Certificate subjects mapped to users through JAAS, fed directly as TLS would hand them over. */
class CertificateLoginModuleTest {

    @TempDir
    Path dir;

    private JaasLogin login() throws Exception {
        Path subjects = Files.writeString(dir.resolve("subjects.properties"),
                "# user = subject\norders-app = CN=orders-app,O=Example\n");
        Path config = Files.writeString(dir.resolve("login.config"), "ramjet {\n"
                + "    io.ramjet.server.broker.security.CertificateLoginModule required usersBySubject=\""
                + subjects + "\";\n};\n");
        Roles roles = Roles.parse(List.of("producers = orders-app"), "roles");
        return JaasLogin.of(config, "ramjet", () -> roles);
    }

    @Test
    void aListedSubjectIsItsUserWithTheUsersRoles() throws Exception {
        assertEquals(Optional.of(new Identity("orders-app", Set.of("producers"))),
                login().login(null, null, "cn=orders-app, o=Example"));
    }

    @Test
    void anUnlistedSubjectOrNoCertificateFails() throws Exception {
        JaasLogin login = login();
        assertTrue(login.login(null, null, "CN=intruder,O=Example").isEmpty());
        assertTrue(login.login("orders-app", "any-password".toCharArray(), null).isEmpty(),
                "a user name and password prove nothing to this module");
    }
}

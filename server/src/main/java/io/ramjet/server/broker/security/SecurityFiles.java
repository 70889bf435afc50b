package io.ramjet.server.broker.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Reads a broker's security configuration at start: the {@link Login} its connections
 * authenticate with and the {@link Permissions} its processors check. A file that does not
 * parse refuses the start, naming the file and line. The users and roles files are watched and
 * read again when they change; the permissions and JAAS files are read once.
 */
public final class SecurityFiles {

    private SecurityFiles() {
    }

    /** @param usersFile the users file, or null for none (then only a JAAS login can succeed) */
    public static Login login(Path usersFile, AccessConfig access) {
        Supplier<Roles> roles = access.rolesFile() == null ? Roles::none
                : new WatchedFile<>(access.rolesFile(), Roles::load)::current;
        if (access.usesJaas()) {
            return JaasLogin.of(access.jaasConfigFile(), access.jaasEntry(), roles);
        }
        Supplier<Users> users = usersFile == null ? Users::none : new WatchedFile<>(usersFile, Users::load)::current;
        return new UsersFileLogin(users, roles);
    }

    public static Permissions permissions(AccessConfig access) {
        if (access.permissionsFile() == null) {
            return Permissions.open();
        }
        try {
            return Permissions.load(access.permissionsFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the permissions file " + access.permissionsFile(), e);
        }
    }
}

package io.ramjet.server.broker.security;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Reads a broker's security configuration at start: the {@link Login} its connections
 * authenticate with and the {@link Permissions} its processors check. A file that does not
 * parse refuses the start, naming the file and line. The users and roles files are watched and
 * read again when they change (looked at on each login), the permissions file too (looked at no
 * more than once per {@link #PERMISSIONS_LOOK_EVERY}, since every request asks it); the JAAS
 * configuration is read once.
 */
public final class SecurityFiles {

    /** How stale the permissions may be: a change is in force this long after it is saved. */
    public static final Duration PERMISSIONS_LOOK_EVERY = Duration.ofSeconds(1);

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

    /** The permissions in force at each call: everything to everyone without a permissions file. */
    public static Supplier<Permissions> permissions(AccessConfig access) {
        if (access.permissionsFile() == null) {
            Permissions open = Permissions.open();
            return () -> open;
        }
        return new WatchedFile<>(access.permissionsFile(), Permissions::load, PERMISSIONS_LOOK_EVERY,
                System::nanoTime)::current;
    }
}

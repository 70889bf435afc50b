package io.ramjet.server.broker.security;

import java.nio.file.Path;
import java.util.Set;

/**
 * Where a broker finds who holds which roles, what each role may do, and the JAAS login to use
 * instead of the users file. Every part is optional.
 *
 * @param rolesFile       the {@link Roles} file, or null when no user holds a role
 * @param permissionsFile the {@link Permissions} file, or null to allow everything to everyone
 * @param jaasConfigFile  a JAAS login configuration file, or null to log in against the users file
 * @param jaasEntry       the entry of that file to log in with ({@link #DEFAULT_JAAS_ENTRY} unless set)
 * @param anonymousRoles  the roles a connection that did not authenticate holds (Artemis's guest role)
 */
public record AccessConfig(Path rolesFile, Path permissionsFile, Path jaasConfigFile, String jaasEntry,
                           Set<String> anonymousRoles) {

    public static final String DEFAULT_JAAS_ENTRY = "ramjet";
    public static final AccessConfig NONE = new AccessConfig(null, null, null, DEFAULT_JAAS_ENTRY, Set.of());

    public AccessConfig {
        anonymousRoles = Set.copyOf(anonymousRoles);
        if (jaasEntry == null || jaasEntry.isBlank()) {
            throw new IllegalArgumentException("jaasEntry must name an entry of the JAAS configuration");
        }
    }

    public boolean usesJaas() {
        return jaasConfigFile != null;
    }
}

package io.ramjet.server.broker.security;

import java.security.Principal;

/** A role a JAAS login module grants: put one in the subject per role the user holds. */
public record RolePrincipal(String getName) implements Principal {
}

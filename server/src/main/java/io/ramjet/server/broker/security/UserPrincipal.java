package io.ramjet.server.broker.security;

import java.security.Principal;

/**
 * The user a JAAS login module proved; a module that maps a certificate to a user must put one
 * in the subject, a password module may (the name given is the user otherwise).
 */
public record UserPrincipal(String getName) implements Principal {
}

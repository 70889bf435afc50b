package io.ramjet.server.broker.security;

import java.util.Set;

/**
 * Who a connection acts for: the user it authenticated as, or none for an anonymous
 * connection, and the roles that user holds. Fixed at login: a later change of the roles or
 * users file applies to new connections only.
 */
public record Identity(String user, Set<String> roles) {

    /** A connection that did not authenticate, holding the roles the broker gives anonymous ones. */
    public static Identity anonymous(Set<String> roles) {
        return new Identity(null, roles);
    }

    public Identity {
        roles = Set.copyOf(roles);
    }

    /** The user's name, or {@code (anonymous)} for the log and error messages. */
    public String describe() {
        return user == null ? "(anonymous)" : "'" + user + "'";
    }
}

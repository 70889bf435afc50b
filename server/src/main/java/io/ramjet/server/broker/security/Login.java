package io.ramjet.server.broker.security;

import java.util.Optional;

/**
 * How a connection's credentials become an {@link Identity}: the users file
 * ({@link UsersFileLogin}) or a JAAS login module ({@link JaasLogin}). Called on the broker's
 * login thread, one login at a time per broker, so an implementation may be slow (a password
 * hash, an LDAP round trip) but must be thread-safe.
 */
public interface Login {

    /**
     * The identity the credentials prove, or empty when they are not accepted.
     *
     * @param user               the user name the client gave, or null
     * @param password           the password the client gave, or null
     * @param certificateSubject the subject of the client's verified TLS certificate, or null
     *                           when the connection has none
     */
    Optional<Identity> login(String user, char[] password, String certificateSubject);
}

package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#AUTHENTICATE}: the user a connection acts for, with its password.
 * The password travels as it is (the connection is not encrypted yet) and is never shown by
 * {@link #toString()}, so a logged frame does not leak it.
 *
 * @param user     the user name, not empty
 * @param password the password, possibly empty
 */
public record AuthenticateRequest(String user, String password) {

    public AuthenticateRequest {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "AuthenticateRequest[user=" + user + ", password=****]";
    }
}

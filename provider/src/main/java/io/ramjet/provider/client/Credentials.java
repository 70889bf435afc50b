package io.ramjet.provider.client;

import java.util.Objects;

/**
 * The user name and password a JMS connection was created with, sent to every broker the
 * connection uses before anything else. {@link #toString()} never shows the password.
 */
public final class Credentials {

    private final String user;
    private final String password;

    /** @param password null is taken as empty */
    public Credentials(String user, String password) {
        this.user = Objects.requireNonNull(user, "user");
        this.password = password == null ? "" : password;
    }

    /** Credentials for a user name, or null (an anonymous connection) when the name is null. */
    public static Credentials of(String user, String password) {
        return user == null ? null : new Credentials(user, password);
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + "]";
    }
}

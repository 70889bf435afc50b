package io.ramjet.ra;

import jakarta.resource.spi.ConnectionRequestInfo;
import java.util.Objects;

/** The user an application asked for in {@code createConnection(user, password)}; null names for the factory's. */
record RequestCredentials(String userName, String password) implements ConnectionRequestInfo {

    static final RequestCredentials FACTORY_DEFAULT = new RequestCredentials(null, null);

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestCredentials r && Objects.equals(r.userName, userName)
                && Objects.equals(r.password, password);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(userName);
    }

    @Override
    public String toString() {
        return userName == null ? "default user" : userName;
    }
}

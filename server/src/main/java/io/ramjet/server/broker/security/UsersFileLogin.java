package io.ramjet.server.broker.security;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Login against the users file with the roles of the roles file, each as it is now (a
 * {@link WatchedFile} re-reads a changed one). A connection that authenticated keeps its identity
 * when the files change; the next login sees the new content. A certificate alone proves
 * nothing here.
 */
public final class UsersFileLogin implements Login {

    private final Supplier<Users> users;
    private final Supplier<Roles> roles;

    public UsersFileLogin(Supplier<Users> users, Supplier<Roles> roles) {
        this.users = users;
        this.roles = roles;
    }

    @Override
    public Optional<Identity> login(String user, char[] password, String certificateSubject) {
        if (user == null || password == null || !users.get().verify(user, password)) {
            return Optional.empty();
        }
        return Optional.of(new Identity(user, roles.get().of(user)));
    }
}

package io.ramjet.server.broker.security;

import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.URIParameter;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * Login through a JAAS entry of a login configuration file (the {@code login.config} syntax of
 * the JDK and of Artemis), so an operator can plug in LDAP, Kerberos or a module of their own.
 * The configuration is read from the file given, never from the JVM-wide
 * {@code java.security.auth.login.config}. The modules are offered a {@link NameCallback}, a
 * {@link PasswordCallback} and a {@link CertificateSubjectCallback}. The user is the subject's
 * {@link UserPrincipal} if a module put one there, else the name given; the roles are the
 * subject's {@link RolePrincipal}s and those the roles file gives that user. Thread-safe.
 */
public final class JaasLogin implements Login {

    private final Configuration configuration;
    private final String entry;
    private final Supplier<Roles> roles;

    private JaasLogin(Configuration configuration, String entry, Supplier<Roles> roles) {
        this.configuration = configuration;
        this.entry = entry;
        this.roles = roles;
    }

    /** @throws IllegalArgumentException when the file does not parse or has no such entry */
    public static JaasLogin of(Path configFile, String entry, Supplier<Roles> roles) {
        Configuration configuration;
        try {
            configuration = Configuration.getInstance("JavaLoginConfig", new URIParameter(configFile.toUri()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("cannot read the JAAS configuration " + configFile + ": "
                    + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage()), e);
        }
        if (configuration.getAppConfigurationEntry(entry) == null) {
            throw new IllegalArgumentException("the JAAS configuration " + configFile + " has no entry '" + entry + "'");
        }
        return new JaasLogin(configuration, entry, roles);
    }

    @Override
    public Optional<Identity> login(String user, char[] password, String certificateSubject) {
        Subject subject = new Subject();
        try {
            new LoginContext(entry, subject, callbacks(user, password, certificateSubject), configuration).login();
        } catch (LoginException e) {
            return Optional.empty();
        }
        String name = subject.getPrincipals(UserPrincipal.class).stream().map(UserPrincipal::getName)
                .findFirst().orElse(user);
        if (name == null) {
            return Optional.empty();
        }
        Set<String> granted = new HashSet<>(roles.get().of(name));
        subject.getPrincipals(RolePrincipal.class).forEach(role -> granted.add(role.getName()));
        return Optional.of(new Identity(name, granted));
    }

    private static CallbackHandler callbacks(String user, char[] password, String certificateSubject) {
        return (Callback[] asked) -> {
            for (Callback callback : asked) {
                if (callback instanceof NameCallback name) {
                    name.setName(user);
                } else if (callback instanceof PasswordCallback secret) {
                    secret.setPassword(password);
                } else if (callback instanceof CertificateSubjectCallback certificate) {
                    certificate.subject(certificateSubject);
                } else {
                    throw new UnsupportedCallbackException(callback);
                }
            }
        };
    }
}

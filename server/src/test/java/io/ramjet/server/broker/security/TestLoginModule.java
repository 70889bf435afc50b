package io.ramjet.server.broker.security;

import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.login.FailedLoginException;
import javax.security.auth.login.LoginException;
import javax.security.auth.spi.LoginModule;

/**
 * A login module of the tests' own, as an operator would write one: accepts the user and
 * password its options name and grants it the option's role; accepts a certificate subject
 * {@code CN=<name>} as the user {@code <name>} without a password.
 */
public final class TestLoginModule implements LoginModule {

    private Subject subject;
    private CallbackHandler callbacks;
    private Map<String, ?> options;
    private String user;

    @Override
    public void initialize(Subject subject, CallbackHandler callbackHandler, Map<String, ?> sharedState,
                           Map<String, ?> options) {
        this.subject = subject;
        this.callbacks = callbackHandler;
        this.options = options;
    }

    @Override
    public boolean login() throws LoginException {
        NameCallback name = new NameCallback("user");
        PasswordCallback password = new PasswordCallback("password", false);
        CertificateSubjectCallback certificate = new CertificateSubjectCallback();
        try {
            callbacks.handle(new Callback[] {name, password, certificate});
        } catch (Exception e) {
            throw new LoginException(e.toString());
        }
        if (certificate.subject() != null && certificate.subject().startsWith("CN=")) {
            user = certificate.subject().substring(3);
            return true;
        }
        char[] given = password.getPassword();
        if (options.get("user").equals(name.getName()) && given != null
                && options.get("password").equals(new String(given))) {
            user = name.getName();
            return true;
        }
        throw new FailedLoginException("not accepted");
    }

    @Override
    public boolean commit() {
        subject.getPrincipals().add(new UserPrincipal(user));
        subject.getPrincipals().add(new RolePrincipal((String) options.get("role")));
        return true;
    }

    @Override
    public boolean abort() {
        user = null;
        return true;
    }

    @Override
    public boolean logout() {
        subject.getPrincipals().clear();
        return true;
    }
}

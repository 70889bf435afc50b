package io.ramjet.server.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.FailedLoginException;
import javax.security.auth.login.LoginException;
import javax.security.auth.spi.LoginModule;
import javax.security.auth.x500.X500Principal;

/**
 * A JAAS login module proving a user by the client's verified TLS certificate, as Artemis's
 * {@code TextFileCertificateLoginModule}: its option {@code usersBySubject} names a file of
 * {@code user = subject distinguished name} lines ({@code #} comments), e.g.
 * {@code orders-app = CN=orders-app, O=Example}. Names are compared as X.500 names, so spacing
 * and case of attribute types do not matter. The file is read at each login, so a change applies
 * to the next one. A connection without a certificate, or whose subject no line names, fails
 * this module; combine it with a password module through the entry's flags
 * ({@code sufficient}) to accept either.
 */
public final class CertificateLoginModule implements LoginModule {

    /** The option naming the subjects file. */
    public static final String USERS_BY_SUBJECT = "usersBySubject";

    private Subject subject;
    private CallbackHandler callbacks;
    private Path file;
    private String user;

    @Override
    public void initialize(Subject subject, CallbackHandler callbackHandler, Map<String, ?> sharedState,
                           Map<String, ?> options) {
        this.subject = subject;
        this.callbacks = callbackHandler;
        Object option = options.get(USERS_BY_SUBJECT);
        this.file = option == null ? null : Path.of(option.toString());
    }

    @Override
    public boolean login() throws LoginException {
        if (file == null) {
            throw new LoginException(getClass().getSimpleName() + " needs the option " + USERS_BY_SUBJECT);
        }
        CertificateSubjectCallback certificate = new CertificateSubjectCallback();
        try {
            callbacks.handle(new Callback[] {certificate});
        } catch (IOException | UnsupportedCallbackException e) {
            throw new LoginException("cannot ask for the certificate subject: " + e);
        }
        if (certificate.subject() == null) {
            throw new FailedLoginException("no client certificate");
        }
        user = userOf(certificate.subject()).orElseThrow(() -> new FailedLoginException("certificate not mapped"));
        return true;
    }

    private Optional<String> userOf(String subjectName) throws LoginException {
        X500Principal presented = principal(subjectName);
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new LoginException("cannot read " + file + ": " + e.getMessage());
        }
        for (String raw : lines) {
            String line = raw.trim();
            int equals = line.indexOf('=');
            if (line.isEmpty() || line.startsWith("#") || equals < 0) {
                continue;
            }
            X500Principal listed = principal(line.substring(equals + 1).trim());
            if (listed != null && listed.equals(presented)) {
                return Optional.of(line.substring(0, equals).trim());
            }
        }
        return Optional.empty();
    }

    /** The X.500 name, or null for text that is not one. */
    private static X500Principal principal(String name) {
        try {
            return new X500Principal(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public boolean commit() {
        if (user == null) {
            return false;
        }
        subject.getPrincipals().add(new UserPrincipal(user));
        return true;
    }

    @Override
    public boolean abort() {
        user = null;
        return true;
    }

    @Override
    public boolean logout() {
        subject.getPrincipals().removeIf(p -> p instanceof UserPrincipal);
        user = null;
        return true;
    }
}

package io.ramjet.server.broker.security;

import javax.security.auth.callback.Callback;

/**
 * Asks for the subject of the client's verified TLS certificate (its distinguished name as
 * {@code X500Principal.getName()} writes it), null when the connection has none. The broker's
 * callback handler fills it in; a JAAS login module that maps certificates to users asks for it.
 */
public final class CertificateSubjectCallback implements Callback {

    private String subject;

    public String subject() {
        return subject;
    }

    public void subject(String value) {
        this.subject = value;
    }
}

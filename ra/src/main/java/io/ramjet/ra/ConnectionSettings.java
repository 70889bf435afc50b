package io.ramjet.ra;

import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import io.ramjet.provider.jms.XaResourceManager;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;

/**
 * Where and as whom the adapter connects: a {@code ramjet://} URL and optional credentials. A
 * connection factory or an activation that leaves a value unset takes the resource adapter's.
 */
record ConnectionSettings(String url, String userName, String password) {

    /** These settings with every unset value taken from {@code defaults}. */
    ConnectionSettings orElse(ConnectionSettings defaults) {
        return new ConnectionSettings(
                url != null && !url.isBlank() ? url : defaults.url,
                userName != null && !userName.isBlank() ? userName : defaults.userName,
                userName != null && !userName.isBlank() ? password : defaults.password);
    }

    /** A new physical XA connection, not started, a resource manager of its own; its client id is left unset. */
    XAConnection openXA() throws JMSException {
        RamjetXAConnectionFactory factory = new RamjetXAConnectionFactory(url);
        return userName == null ? factory.createXAConnection() : factory.createXAConnection(userName, password);
    }

    /**
     * As {@link #openXA()}, one resource manager with the other connections of its user opened
     * with {@code resourceManager} (null: one of its own).
     */
    XAConnection openXA(XaResourceManager resourceManager) throws JMSException {
        return resourceManager == null ? openXA()
                : new RamjetXAConnectionFactory(url).createXAConnection(userName, password, resourceManager);
    }

    @Override
    public String toString() {
        return url + (userName == null ? "" : " as " + userName);
    }
}

package io.ramjet.ra;

import java.io.Serializable;

/**
 * The JavaBean properties naming where and as whom to connect, shared by the resource adapter,
 * its connection factories and its activation specs: {@code connectionUrl} (a {@code ramjet://}
 * URL), {@code userName} and {@code password}.
 */
abstract class ConnectionProperties implements Serializable {

    private static final long serialVersionUID = 1L;

    private String connectionUrl;
    private String userName;
    private String password;

    /** These properties as they are, unset ones null. */
    ConnectionSettings ownSettings() {
        return new ConnectionSettings(connectionUrl, userName, password);
    }

    public String getConnectionUrl() {
        return connectionUrl;
    }

    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    public String getUserName() {
        return userName;
    }

    public void setUserName(String userName) {
        this.userName = userName;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }
}

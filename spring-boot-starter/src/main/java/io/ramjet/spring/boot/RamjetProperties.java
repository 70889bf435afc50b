package io.ramjet.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;

/** Ramjet's settings under {@code spring.ramjet}. */
@ConfigurationProperties(prefix = "spring.ramjet")
public class RamjetProperties {

    /** NameServers to connect to, such as ramjet://host:9876[,host2:9876][?key=value]. Without one an embedded broker starts when ramjet-server-embedded is present, else ramjet://127.0.0.1:9876 is used. */
    private String url;

    /** User to authenticate as; without one connections are anonymous. */
    private String user;

    /** Password of the user. */
    private String password;

    /** Client id of the shared connection (durable subscriptions need one). */
    private String clientId;

    private final Cache cache = new Cache();

    private final Embedded embedded = new Embedded();

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Cache getCache() {
        return cache;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    /** The one shared connection and its cached sessions, producers and consumers. */
    public static class Cache {

        /** Whether to share one connection and cache its sessions; when false every use opens a connection. */
        private boolean enabled = true;

        /** Sessions kept per acknowledge mode. */
        private int sessionCacheSize = 1;

        /** Whether to cache message producers. */
        private boolean producers = true;

        /** Whether to cache message consumers. */
        private boolean consumers = false;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getSessionCacheSize() {
            return sessionCacheSize;
        }

        public void setSessionCacheSize(int sessionCacheSize) {
            this.sessionCacheSize = sessionCacheSize;
        }

        public boolean isProducers() {
            return producers;
        }

        public void setProducers(boolean producers) {
            this.producers = producers;
        }

        public boolean isConsumers() {
            return consumers;
        }

        public void setConsumers(boolean consumers) {
            this.consumers = consumers;
        }
    }

    /** A NameServer and broker in the application's JVM (needs ramjet-server-embedded). */
    public static class Embedded {

        /** Whether to start an embedded broker; by default it starts when no url is set. */
        private Boolean enabled;

        /** Data directory of the embedded broker, kept on shutdown; by default a temporary one, deleted on shutdown. */
        private Path dataDir;

        public Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public Path getDataDir() {
            return dataDir;
        }

        public void setDataDir(Path dataDir) {
            this.dataDir = dataDir;
        }
    }
}

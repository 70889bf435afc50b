package io.ramjet.server.standalone;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key of a broker's configuration, documented here once: the properties file and the
 * launcher's {@code --set} parse through this table, and a test holds the key table of
 * docs/configuration.md equal to it. To add a key: a component and a builder setter in
 * {@link BrokerConfig}, a row here, the row the test prints into docs/configuration.md.
 */
final class BrokerKeys {

    static final List<BrokerKey<?>> ALL = List.of(
            new BrokerKey<>("clusterName", ValueType.TEXT, "DefaultCluster",
                    "cluster the broker registers under", BrokerConfigBuilder::clusterName),
            new BrokerKey<>("brokerName", ValueType.TEXT, "broker-a",
                    "broker group name (master and slaves share it)", BrokerConfigBuilder::brokerName),
            new BrokerKey<>("brokerId", ValueType.LONG, "0", "0 for a master", BrokerConfigBuilder::brokerId),
            new BrokerKey<>("role", ValueType.ROLE, "MASTER",
                    "`MASTER` serves clients and its group's slaves; `SLAVE` replicates `masterAddress`'s CommitLog"
                            + " (its `brokerId` not 0, the same `brokerName` and `segmentSize`), serves browsing only"
                            + " and refuses sends, consumers and transactions", BrokerConfigBuilder::role),
            new BrokerKey<>("masterAddress", ValueType.TEXT, "(none)",
                    "`host:port` of the group's master, for a slave", BrokerConfigBuilder::masterAddress),
            new BrokerKey<>("replicationMode", ValueType.REPLICATION_MODE, "ASYNC",
                    "`SYNC`: a persistent send, a commit or an acknowledgement is answered once every slave of the"
                            + " in-sync set has flushed it; `ASYNC`: at the master's own durability",
                    BrokerConfigBuilder::replicationMode),
            new BrokerKey<>("minInSyncReplicas", ValueType.INT, "1",
                    "under `SYNC`, brokers (the master included) that must hold a durable write; with fewer in sync"
                            + " it waits up to `replicaSyncTimeoutMs`, then fails", BrokerConfigBuilder::minInSyncReplicas),
            new BrokerKey<>("replicaMaxLagMs", ValueType.MILLIS, "10000",
                    "a slave that has not caught up with the master for this long leaves the in-sync set",
                    BrokerConfigBuilder::replicaMaxLag),
            new BrokerKey<>("replicaSyncTimeoutMs", ValueType.MILLIS, "5000",
                    "how long a `SYNC` write waits for the in-sync set before it fails (it stays on the master)",
                    BrokerConfigBuilder::replicaSyncTimeout),
            new BrokerKey<>("masterEpoch", ValueType.INT, "0",
                    "the epoch a master writes in (a controller's choice); 0 takes one past the newest in its"
                            + " `epochs` file", BrokerConfigBuilder::masterEpoch),
            new BrokerKey<>("controllerAddresses", ValueType.TEXT, "(none)",
                    "the controller group's peers, `n0=host:port,n1=host:port,n2=host:port` (its `controller.peers`):"
                            + " the broker's role, master and epoch then come from the controllers (see \"High"
                            + " availability\"); not with `role` or `masterAddress`",
                    BrokerConfigBuilder::controllerAddresses),
            new BrokerKey<>("controllerHeartbeatMs", ValueType.MILLIS, "500",
                    "how often a broker in controller mode heartbeats to the controllers: four times per lease"
                            + " (`controllerTimeoutMs`), so that a late heartbeat or two does not fence a master; a"
                            + " slave whose master is lost heartbeats five times as often, to hear at once that it"
                            + " was elected",
                    BrokerConfigBuilder::controllerHeartbeat),
            new BrokerKey<>("controllerTimeoutMs", ValueType.MILLIS, "2000",
                    "the controllers' `controller.brokerTimeoutMillis`, a master's lease: a master whose heartbeats"
                            + " have gone unanswered this long refuses writes (NOT_MASTER), as the controllers may elect"
                            + " another; they do so as soon as it ends if a slave reports the master lost, else after"
                            + " `controller.silentMasterTimeoutMillis` (see \"High availability\")",
                    BrokerConfigBuilder::controllerTimeout),
            new BrokerKey<>("controllerRegisterPatienceMs", ValueType.MILLIS, "30000",
                    "how long a starting broker in controller mode retries its registration while the controllers"
                            + " have no leader (or name no master) before it gives up and exits",
                    BrokerConfigBuilder::controllerRegisterPatience),
            new BrokerKey<>("controllerTlsCertificate", ValueType.PATH, "(none)",
                    "PEM certificate chain (leaf first) the broker presents to the controllers when they run on"
                            + " mutual TLS (their `controller.tlsCertificate`, see \"High availability\"); with"
                            + " `controllerTlsPrivateKey` and `controllerTlsTrustStore`, all three or none",
                    BrokerConfigBuilder::controllerTlsCertificate),
            new BrokerKey<>("controllerTlsPrivateKey", ValueType.PATH, "(none)",
                    "PEM PKCS#8 private key (unencrypted) of `controllerTlsCertificate`",
                    BrokerConfigBuilder::controllerTlsPrivateKey),
            new BrokerKey<>("controllerTlsTrustStore", ValueType.PATH, "(none)",
                    "PEM certificates the broker trusts to sign the controllers' certificates (the cluster's CA);"
                            + " a controller's certificate must name the host of its `controllerAddresses` entry",
                    BrokerConfigBuilder::controllerTlsTrustStore),
            new BrokerKey<>("host", ValueType.TEXT, "127.0.0.1",
                    "address the broker binds; `0.0.0.0` binds every interface",
                    BrokerConfigBuilder::host),
            new BrokerKey<>("advertisedHost", ValueType.TEXT, "(`host`, or this machine's canonical host name"
                    + " when `host` is a wildcard such as `0.0.0.0`)",
                    "address the broker announces to the NameServers, which clients connect to",
                    BrokerConfigBuilder::advertisedHost),
            new BrokerKey<>("port", ValueType.PORT, "10911", "port the broker binds", BrokerConfigBuilder::port),
            new BrokerKey<>("advertisedPort", ValueType.PORT, "(`port`)",
                    "port the broker announces to the NameServers and the controllers, which clients and slaves"
                            + " connect to (a port forward or proxy in front of the broker)",
                    BrokerConfigBuilder::advertisedPort),
            new BrokerKey<>("nativeTransport", ValueType.BOOLEAN, "true",
                    "accept connections on Netty's native epoll transport where it loads (Linux on x86_64 or"
                            + " aarch64), else on Java's NIO; `false` keeps NIO (the log names the one in use)",
                    BrokerConfigBuilder::nativeTransport),
            new BrokerKey<>("nameServers", ValueType.LIST, "127.0.0.1:9876",
                    "NameServers to register with, comma-separated `host:port`", BrokerConfigBuilder::nameServers),
            new BrokerKey<>("dataDir", ValueType.PATH, "./data",
                    "CommitLog, ConsumeQueues, checkpoint, consumption snapshot", BrokerConfigBuilder::dataDir),
            new BrokerKey<>("autoCreateDestinations", ValueType.BOOLEAN, "true",
                    "create a destination on first use; when `false` the broker refuses a client's creation of a"
                            + " queue or topic and a send to an unknown one (`InvalidDestinationException`): only"
                            + " `queues`, `topics` and temporary destinations exist",
                    BrokerConfigBuilder::autoCreateDestinations),
            new BrokerKey<>("queues", ValueType.LIST, "(none)",
                    "comma-separated queue names created at start, whatever `autoCreateDestinations` says",
                    BrokerConfigBuilder::queues),
            new BrokerKey<>("topics", ValueType.LIST, "(none)", "comma-separated topic names created at start",
                    BrokerConfigBuilder::topics),
            new BrokerKey<>("queuesPerDestination", ValueType.INT, "4", "message queues of a new destination",
                    BrokerConfigBuilder::queuesPerDestination),
            new BrokerKey<>("maxDeliveries", ValueType.INT, "10",
                    "deliveries before a message goes to the dead-letter queue", BrokerConfigBuilder::maxDeliveries),
            new BrokerKey<>("deadLetterPrefix", ValueType.TEXT, "DLQ.",
                    "dead-letter queue of destination D is prefix + D", BrokerConfigBuilder::deadLetterPrefix),
            new BrokerKey<>("messageGroups", ValueType.BOOLEAN, "true",
                    "honour `JMSXGroupID` on queues and shared subscriptions: a group's messages go to one consumer"
                            + " at a time, in order (see \"Message groups\"); `false` makes it an ordinary property",
                    BrokerConfigBuilder::messageGroups),
            new BrokerKey<>("groupIdleTimeoutMs", ValueType.MILLIS, "60000",
                    "how long a consumer keeps a message group with nothing of it in flight before the group is"
                            + " free for any consumer; 0 keeps it until the consumer leaves",
                    BrokerConfigBuilder::groupIdleTimeout),
            new BrokerKey<>("groupRebalanceOnJoin", ValueType.BOOLEAN, "false",
                    "a consumer joining a queue or shared subscription frees every message group (each moves once"
                            + " nothing of it is in flight), so groups spread over the consumers again",
                    BrokerConfigBuilder::groupRebalanceOnJoin),
            new BrokerKey<>("heartbeatIntervalMs", ValueType.MILLIS, "30000",
                    "how often the broker re-registers with the NameServers", BrokerConfigBuilder::heartbeatInterval),
            new BrokerKey<>("diskUseLimit", ValueType.FRACTION, "0.95",
                    "fraction of the disk above which sends are held back", BrokerConfigBuilder::diskUseLimit),
            new BrokerKey<>("diskFullBlockMs", ValueType.MILLIS, "0",
                    "how long a send past the limit waits for room before it is refused with"
                            + " `ResourceAllocationException`; 0 refuses at once",
                    BrokerConfigBuilder::diskFullBlock),
            new BrokerKey<>("transactionCheckAfterMs", ValueType.MILLIS, "6000",
                    "age of an unfinished transaction's half records before the broker asks its owner (check-back)",
                    BrokerConfigBuilder::transactionCheckAfter),
            new BrokerKey<>("transactionCheckIntervalMs", ValueType.MILLIS, "5000",
                    "how often the broker looks for transactions to check",
                    BrokerConfigBuilder::transactionCheckInterval),
            new BrokerKey<>("transactionMaxChecks", ValueType.INT, "15",
                    "checks in a row that a transaction's connected owner leaves unanswered before the broker rolls"
                            + " it back (about 81 s with the defaults); an owner that answers \"still open\" keeps it"
                            + " for as long as it stays connected, one gone or that has forgotten it has it rolled back"
                            + " at the first check; a prepared participant keeps asking its coordinator instead",
                    BrokerConfigBuilder::transactionMaxChecks),
            new BrokerKey<>("producerIdleExpiryMs", ValueType.MILLIS, "3600000",
                    "an idempotent producer none of whose messages was stored for this long is forgotten: a resend"
                            + " of its messages after that is stored again (see \"Idempotent producer\")",
                    BrokerConfigBuilder::producerIdleExpiry),
            new BrokerKey<>("producerTableMax", ValueType.INT, "100000",
                    "idempotent producers remembered; beyond it the longest idle is forgotten",
                    BrokerConfigBuilder::producerTableMax),
            new BrokerKey<>("segmentSize", ValueType.INT_BYTES, "1g",
                    "bytes per CommitLog segment file (below `2g`); a small disk wants `64m` or less",
                    (b, v) -> b.store().segmentSize(v)),
            new BrokerKey<>("maxRecordSize", ValueType.INT_BYTES, "4m",
                    "largest record the CommitLog accepts (a message with its headers, a large message's body"
                            + " travelling as chunks of at most 1 MiB, see [Large messages](large-messages.md); a"
                            + " transaction's COMMIT larger than this is written as a chain of records of at most this"
                            + " size, see [Architecture](architecture.md#storage)); at most `segmentSize`, and lowered"
                            + " to it when not set",
                    (b, v) -> b.store().maxRecordSize(v)),
            new BrokerKey<>("minFreeSpace", ValueType.BYTES, "256m",
                    "usable bytes that must stay free beside the next CommitLog segment: a message is refused with"
                            + " `ResourceAllocationException` once the segment after the active one is not prepared and"
                            + " does not fit with this much left, so acknowledgements and queue index files (which may"
                            + " use three quarters of it) can always drain a full broker, whatever `segmentSize`",
                    (b, v) -> b.store().minFreeSpace(v)),
            new BrokerKey<>("flushPolicy", ValueType.FLUSH_POLICY, "SYNC_GROUP_COMMIT",
                    "`SYNC_GROUP_COMMIT`: a persistent send returns once a force covers it (concurrent sends share"
                            + " one); `ASYNC`: no send waits for the disk, the periodic flush writes it; consumers"
                            + " still see a persistent message only once it is forced (the broker forces as soon as one"
                            + " waits to be seen)",
                    (b, v) -> b.store().flushPolicy(v)),
            new BrokerKey<>("flushIntervalMs", ValueType.MILLIS, "200", "period of the background flush",
                    (b, v) -> b.store().flushInterval(v)),
            new BrokerKey<>("checkpointIntervalMs", ValueType.MILLIS, "10000",
                    "period of the checkpoint (recovery after a crash scans what was written since the last one)",
                    (b, v) -> b.store().checkpointInterval(v)),
            new BrokerKey<>("retentionIntervalMs", ValueType.MILLIS, "10000",
                    "how often the broker deletes CommitLog segments nothing needs any more",
                    (b, v) -> b.store().retentionInterval(v)),
            new BrokerKey<>("consumeQueueEntriesPerFile", ValueType.INT, "300000",
                    "20-byte entries per ConsumeQueue file", (b, v) -> b.store().consumeQueueEntriesPerFile(v)),
            new BrokerKey<>("usersFile", ValueType.PATH, "(none)",
                    "users file (path relative to the working directory): one"
                            + " `name = pbkdf2-sha256$iterations$saltBase64$hashBase64` per line, `#` comments; a"
                            + " malformed line or fewer than 100,000 iterations refuses the start. Without one, every"
                            + " `createConnection(user, password)` is refused",
                    BrokerConfigBuilder::usersFile),
            new BrokerKey<>("allowAnonymous", ValueType.BOOLEAN, "true",
                    "`true`: connections without credentials work as before; `false`: a connection must"
                            + " authenticate before any other command, else every command is refused"
                            + " (`JMSSecurityException`); needs `usersFile`",
                    BrokerConfigBuilder::allowAnonymous),
            new BrokerKey<>("rolesFile", ValueType.PATH, "(none)",
                    "roles file: one `role = user, user` per line (as Artemis's `artemis-roles.properties`), `#`"
                            + " comments; read again when it changes (new connections get the new roles)",
                    BrokerConfigBuilder::rolesFile),
            new BrokerKey<>("permissionsFile", ValueType.PATH, "(none)",
                    "permissions file: one `operation pattern = role, role` per line (operations `send`, `consume`,"
                            + " `browse`, `createDurableSubscription`, `deleteDurableSubscription`, `createTemporary`,"
                            + " `createDestination`, `deleteDestination`, `admin`; patterns with Artemis's `#` and `*`;"
                            + " role `*` is every connection). Without one, every connection may do everything;"
                            + " with one, what no rule allows is refused (`JMSSecurityException`)",
                    BrokerConfigBuilder::permissionsFile),
            new BrokerKey<>("anonymousRoles", ValueType.LIST, "(none)",
                    "comma-separated roles a connection without credentials holds (Artemis's guest role), when"
                            + " `allowAnonymous` admits it", BrokerConfigBuilder::anonymousRoles),
            new BrokerKey<>("jaasConfigFile", ValueType.PATH, "(none)",
                    "a JAAS login configuration file (`login.config` syntax); when set, logins go through its"
                            + " `jaasEntry` instead of `usersFile`", BrokerConfigBuilder::jaasConfigFile),
            new BrokerKey<>("jaasEntry", ValueType.TEXT, "ramjet",
                    "the entry of `jaasConfigFile` to log in with",
                    BrokerConfigBuilder::jaasEntry),
            new BrokerKey<>("nameServerSecret", ValueType.SECRET, "(none)",
                    "the secret the NameServers were started with (`--secret-file`), at least 16 characters; the"
                            + " broker signs its registrations with it. Without one its registrations are unsigned,"
                            + " and a NameServer with a secret refuses them",
                    BrokerConfigBuilder::nameServerSecret),
            new BrokerKey<>("nameServerSecretFile", ValueType.SECRET_FILE, "(none)",
                    "a file holding that secret instead (e.g. a standalone server's `data/namesrv.secret`);"
                            + " not both keys",
                    BrokerConfigBuilder::nameServerSecret),
            new BrokerKey<>("clusterSecret", ValueType.CLUSTER_SECRET, "(derived from `nameServerSecret`)",
                    "the secret every broker and controller of the cluster holds, at least 16 characters: a broker"
                            + " proves it (an HMAC of a challenge, the secret never travels) to replicate from its"
                            + " master and to ask a coordinator about a transaction, and signs its calls to the"
                            + " controllers with it; a master serves replication only to a slave of its group that"
                            + " proved it. Without it (and without `nameServerSecret`) no slave may follow this broker"
                            + " and controller mode does not start",
                    BrokerConfigBuilder::clusterSecret),
            new BrokerKey<>("clusterSecretFile", ValueType.CLUSTER_SECRET_FILE, "(none)",
                    "a file holding that secret instead; not both keys",
                    BrokerConfigBuilder::clusterSecret),
            new BrokerKey<>("clusterUser", ValueType.TEXT, "(none)",
                    "the user (of the other brokers' users files) this broker authenticates as when it asks another"
                            + " broker about a transaction that broker coordinates, when it has no cluster secret;"
                            + " a broker answers such questions to a login as its own `clusterUser` besides a proven"
                            + " member (Artemis's `cluster-user`)",
                    BrokerConfigBuilder::clusterUser),
            new BrokerKey<>("clusterPassword", ValueType.TEXT, "(none)", "the password of `clusterUser`",
                    BrokerConfigBuilder::clusterPassword),
            new BrokerKey<>("tlsCertificate", ValueType.PATH, "(none)",
                    "PEM certificate chain (leaf first) the broker's port presents, with `tlsPrivateKey`; these two"
                            + " or `tlsKeyStore` turn TLS (TLSv1.3/1.2) on for the port, and then plain-text clients"
                            + " are refused", (b, v) -> b.tls().certificate(v)),
            new BrokerKey<>("tlsPrivateKey", ValueType.PATH, "(none)",
                    "PEM PKCS#8 private key of `tlsCertificate` (encrypted when `tlsKeyPassword` is set)",
                    (b, v) -> b.tls().privateKey(v)),
            new BrokerKey<>("tlsKeyStore", ValueType.PATH, "(none)",
                    "PKCS#12 or JKS key store holding the port's key and certificate, instead of the PEM files",
                    (b, v) -> b.tls().keyStore(v)),
            new BrokerKey<>("tlsKeyPassword", ValueType.TEXT, "(none)",
                    "password of `tlsKeyStore` (store and key), or of an encrypted `tlsPrivateKey`",
                    (b, v) -> b.tls().keyPassword(v)),
            new BrokerKey<>("tlsClientAuth", ValueType.CLIENT_AUTH, "none",
                    "mutual TLS: `required` refuses a client without a certificate signed by `tlsTrustStore`"
                            + " during the handshake, `optional` verifies one when presented, `none` asks for none",
                    (b, v) -> b.tls().clientAuth(v)),
            new BrokerKey<>("tlsTrustStore", ValueType.PATH, "(none)",
                    "CA certificates (a PEM file, or a PKCS#12 or JKS store) trusted to sign client certificates"
                            + " and, with `tlsOutbound`, the NameServers' and coordinator brokers' certificates"
                            + " (without it those are checked against the JDK's CAs)",
                    (b, v) -> b.tls().trustStore(v)),
            new BrokerKey<>("tlsTrustStorePassword", ValueType.TEXT, "(none)", "password of a `tlsTrustStore` store",
                    (b, v) -> b.tls().trustStorePassword(v)),
            new BrokerKey<>("tlsOutbound", ValueType.BOOLEAN, "false",
                    "the broker connects to its NameServers and to coordinator brokers with TLS, presenting its own"
                            + " key when it has one (`standalone` sets it when the port has TLS)",
                    (b, v) -> b.tls().outbound(v)),
            new BrokerKey<>("tlsVerifyHostname", ValueType.BOOLEAN, "true",
                    "an outbound TLS connection checks that the server's certificate names the host connected to;"
                            + " `false` is for test certificates only",
                    (b, v) -> b.tls().verifyHostname(v)),
            new BrokerKey<>("maxConnections", ValueType.INT, "10000", "connections the broker's port holds open in all;"
                    + " more are closed as they open", BrokerConfigBuilder::maxConnections),
            new BrokerKey<>("maxConnectionsPerAddress", ValueType.INT, "1000",
                    "connections the broker's port holds open from one remote address",
                    BrokerConfigBuilder::maxConnectionsPerAddress),
            new BrokerKey<>("maxUnauthenticatedConnections", ValueType.INT, "1000",
                    "with `allowAnonymous=false`: connections held open that have not authenticated yet",
                    BrokerConfigBuilder::maxUnauthenticatedConnections),
            new BrokerKey<>("maxFrameLengthBeforeLogin", ValueType.INT_BYTES, "64k",
                    "with `allowAnonymous=false`: the largest frame a connection may send before it authenticates;"
                            + " a larger one closes it", BrokerConfigBuilder::maxFrameLengthBeforeLogin),
            new BrokerKey<>("frameMemoryLimit", ValueType.BYTES, "256m",
                    "direct memory all partially received frames over 64 KiB may hold together; a frame that"
                            + " does not fit closes its connection", BrokerConfigBuilder::frameMemoryLimit),
            new BrokerKey<>("frameMemoryPerUser", ValueType.BYTES, "64m",
                    "the part of `frameMemoryLimit` the frames of one user (before login: one remote address)"
                            + " may hold, so that one cannot take what the others need",
                    BrokerConfigBuilder::frameMemoryPerUser),
            new BrokerKey<>("tlsProtocols", ValueType.LIST, "TLSv1.3,TLSv1.2",
                    "TLS protocol versions the port accepts and outbound connections offer, comma-separated",
                    (b, v) -> b.tls().protocols(v)),
            new BrokerKey<>("tlsCipherSuites", ValueType.LIST, "(forward-secret AEAD suites)",
                    "cipher suites, comma-separated JDK (IANA) names; the default is TLS 1.3's three and, for TLS 1.2,"
                            + " ECDHE with AES-GCM or ChaCha20-Poly1305 only (no static RSA, CBC or SHA-1 suites);"
                            + " suites the JDK lacks are left out",
                    (b, v) -> b.tls().cipherSuites(v)),
            new BrokerKey<>("metricsPort", ValueType.PORT, "(none)",
                    "HTTP port of the Prometheus scrape endpoint (`GET /metrics`) and of the web console"
                            + " (`/console/`), bound on `host`; without one there is neither",
                    BrokerConfigBuilder::metricsPort),
            new BrokerKey<>("metricsJmx", ValueType.BOOLEAN, "false",
                    "publish the same metrics through JMX (domain `ramjet`)", BrokerConfigBuilder::metricsJmx),
            new BrokerKey<>("metricsRequireLogin", ValueType.BOOLEAN, "false",
                    "`/metrics` asks for the console's login (HTTP Basic, a user with the `admin` right) instead of"
                            + " answering anyone; needs `usersFile` or `jaasConfigFile`. Off, it shows every"
                            + " destination's name and depth and the data directory to whoever reaches the port",
                    BrokerConfigBuilder::metricsRequireLogin));

    private static final Map<String, BrokerKey<?>> BY_NAME = byName();

    private BrokerKeys() {
    }

    /** The key of that name, or null. */
    static BrokerKey<?> named(String name) {
        return BY_NAME.get(name);
    }

    private static Map<String, BrokerKey<?>> byName() {
        Map<String, BrokerKey<?>> keys = new LinkedHashMap<>();
        for (BrokerKey<?> key : ALL) {
            if (keys.put(key.name(), key) != null) {
                throw new IllegalStateException("key " + key.name() + " twice");
            }
        }
        return keys;
    }
}

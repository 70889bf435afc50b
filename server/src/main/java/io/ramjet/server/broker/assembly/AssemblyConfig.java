package io.ramjet.server.broker.assembly;

import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.replication.ReplicationConfig;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.subscription.MessageGroupPolicy;
import io.ramjet.server.config.NameServerSecret;
import io.ramjet.server.config.RemotingServerConfig;
import io.ramjet.server.config.TlsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The settings the assembly reads, each as the broker's configuration ({@code BrokerConfig},
 * which implements this) documents it. The assembly sits below the broker's root package and
 * names it nowhere: the configuration comes in through this view.
 */
public interface AssemblyConfig {

    String clusterName();

    String brokerName();

    long brokerId();

    String host();

    List<String> nameServers();

    int queuesPerDestination();

    int maxDeliveries();

    String deadLetterPrefix();

    Duration heartbeatInterval();

    double diskUseLimit();

    Duration diskFullBlock();

    Duration transactionCheckAfter();

    Duration transactionCheckInterval();

    int transactionMaxChecks();

    List<String> queues();

    List<String> topics();

    Path usersFile();

    boolean allowAnonymous();

    AccessConfig access();

    NameServerSecret nameServerSecret();

    String clusterUser();

    String clusterPassword();

    ClusterSecret clusterIdentity();

    TlsSettings tls();

    int metricsPort();

    boolean metricsJmx();

    boolean metricsRequireLogin();

    boolean metricsEnabled();

    MessageGroupPolicy messageGroups();

    ReplicationConfig replication();

    Path dataDir();

    RemotingServerConfig remoting();
}

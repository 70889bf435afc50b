package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.processor.AdminProcessor;
import io.ramjet.server.remoting.BrokerRegistrar;
import io.ramjet.server.remoting.NameServerRegistrations;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master's registration with the configured NameServers: the first at start, then the
 * heartbeat, and again soon when its destinations change. A broker without NameServers, or a
 * slave, has none.
 */
public final class NameServerRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(NameServerRegistration.class);
    private static final Duration NAME_SERVER_TIMEOUT = Duration.ofSeconds(3);

    private final AssemblyConfig config;
    private volatile RemotingClient nameServerRemoting;
    private BrokerRegistrar registrar;

    public NameServerRegistration(AssemblyConfig config) {
        this.config = config;
    }

    /**
     * Registers the broker at {@code address} with its {@code destinations} and the epoch it
     * serves, waiting a little for the first registration.
     */
    public void start(Supplier<String> address, DestinationTable destinations, IntSupplier epoch) {
        Supplier<RegisterBrokerRequest> registration = () -> registration(address.get(), destinations, epoch);
        if (config.nameServers().isEmpty()) {
            return;
        }
        nameServerRemoting = new RemotingClient(RemotingClientConfig.defaults().withTls(config.tls().client()));
        NameServerRegistrations nameServers = new NameServerRegistrations(nameServerRemoting, config.nameServers(),
                NAME_SERVER_TIMEOUT);
        registrar = new BrokerRegistrar(nameServers, registration, config.heartbeatInterval(),
                config.nameServerSecret());
        // wait for the first registration, so a client started after start() finds the route;
        // a NameServer that is down only delays it: the heartbeat registers again
        try {
            registrar.start().get(NAME_SERVER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("broker {} is not registered with any NameServer yet ({}); the heartbeat will retry",
                    config.brokerName(), e.getCause() == null ? e.toString() : e.getCause().toString());
        }
    }

    /** Only a master registers, so always as {@link BrokerInfo#MASTER_ID}, with the epoch it serves. */
    private RegisterBrokerRequest registration(String address, DestinationTable destinations, IntSupplier epoch) {
        return new RegisterBrokerRequest(brokerInfo(config, address), AdminProcessor.infos(destinations),
                epoch.getAsInt());
    }

    /** As the NameServers route to a broker: a master under {@link BrokerInfo#MASTER_ID}, whatever its configured id. */
    public static BrokerInfo brokerInfo(AssemblyConfig config, String address) {
        long id = config.replication().slave() ? config.brokerId() : BrokerInfo.MASTER_ID;
        return new BrokerInfo(config.clusterName(), config.brokerName(), id, address);
    }

    /** The destinations changed: registers again soon, when registered at all. */
    public void announceDestinations() {
        BrokerRegistrar r = registrar;
        if (r != null) {
            r.registerSoon();
        }
    }

    /** The client the broker registers with, null when it has none. */
    public RemotingClient nameServers() {
        return nameServerRemoting;
    }

    /** Unregisters. */
    public void close() {
        if (registrar != null) {
            registrar.close();
            registrar = null;
        }
        if (nameServerRemoting != null) {
            nameServerRemoting.close();
            nameServerRemoting = null;
        }
    }
}

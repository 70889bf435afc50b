package io.ramjet.ra;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The started resource adapters of one deployment of ramjet-ra.rar to which the administrator
 * gave a {@code connectionUrl}, in the order they started. An application server may start more
 * than one instance of the adapter class for one deployment: WildFly starts a fresh one,
 * configured from ra.xml alone, for every connection factory and destination an application
 * defines by annotation ({@code @JMSConnectionFactoryDefinition}, {@code @ConnectionFactoryDefinition}).
 * Such an instance has no URL of its own and connects where the first configured one does, with
 * its credentials, so that every factory of the deployment reaches the brokers the administrator
 * named. The list lives in the adapter's class loader: one per deployment of the adapter, shared
 * by nothing else. It is made on first use and its loss tolerated, because GlassFish-based servers
 * (Payara, which starts one instance only) clear the static fields a RAR set while it deployed.
 * Thread-safe.
 */
final class ConfiguredAdapters {

    /** Guarded by the class; null until the first configured adapter starts, or once a server cleared it. */
    private static List<RamjetResourceAdapter> started;

    private ConfiguredAdapters() {
    }

    /** Counts {@code adapter} as configured from now on, if it has a URL of its own. */
    static synchronized void started(RamjetResourceAdapter adapter) {
        String url = adapter.ownSettings().url();
        if (url != null && !url.isBlank()) {
            if (started == null) {
                started = new ArrayList<>();
            }
            started.add(adapter);
        }
    }

    static synchronized void stopped(RamjetResourceAdapter adapter) {
        if (started != null) {
            started.removeIf(s -> s == adapter);
        }
    }

    /** The settings of the first configured adapter still started, if any. */
    static synchronized Optional<ConnectionSettings> first() {
        return started == null ? Optional.empty() : started.stream().findFirst().map(ConnectionProperties::ownSettings);
    }
}

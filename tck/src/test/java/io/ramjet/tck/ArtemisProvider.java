package io.ramjet.tck;

import jakarta.jms.ConnectionFactory;
import java.util.Set;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.remoting.impl.invm.InVMAcceptorFactory;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.junit.EmbeddedActiveMQExtension;
import org.apache.activemq.artemis.spi.core.security.ActiveMQSecurityManagerImpl;

/**
 * ActiveMQ Artemis embedded in this JVM (in-VM acceptor, no persistence): the reference. Security
 * is on, with the user {@link ProviderUnderTest#USER} and a default (guest) user for connections
 * without credentials, both allowed everything on every address, and {@link ProviderUnderTest#READER}
 * allowed to consume, browse and make non-durable queues only.
 */
final class ArtemisProvider implements ProviderUnderTest {

    private static final String GUEST = "guest";
    private static final String EVERYTHING = "everything";
    private static final String READERS = "readers";

    private final EmbeddedActiveMQExtension server = new EmbeddedActiveMQExtension(configuration());
    private ActiveMQConnectionFactory factory;

    /** The extension's own defaults (in-VM, no persistence, dead-letter and expiry addresses), with security on. */
    private static Configuration configuration() {
        Role everything = new Role(EVERYTHING, true, true, true, true, true, true, true, true, true, true, true, true);
        // send, consume, createDurableQueue, deleteDurableQueue, createNonDurableQueue, deleteNonDurableQueue,
        // manage, browse, createAddress, deleteAddress, view, edit
        Role readers = new Role(READERS, false, true, false, false, true, true, false, true, false, false, false, false);
        return new ConfigurationImpl()
                .setName("embedded-server")
                .setPersistenceEnabled(false)
                .setSecurityEnabled(true)
                .addAcceptorConfiguration(new TransportConfiguration(InVMAcceptorFactory.class.getName()))
                .addAddressSetting("#", new AddressSettings()
                        .setDeadLetterAddress(SimpleString.of("dla"))
                        .setExpiryAddress(SimpleString.of("expiry")))
                .putSecurityRoles("#", Set.of(everything, readers));
    }

    @Override
    public String name() {
        return "Artemis";
    }

    @Override
    public void start() {
        ActiveMQSecurityManagerImpl security = new ActiveMQSecurityManagerImpl();
        security.getConfiguration().addUser(USER, PASSWORD);
        security.getConfiguration().addRole(USER, EVERYTHING);
        security.getConfiguration().addUser(GUEST, GUEST);
        security.getConfiguration().addRole(GUEST, EVERYTHING);
        security.getConfiguration().setDefaultUser(GUEST);
        security.getConfiguration().addUser(READER, READER_PASSWORD);
        security.getConfiguration().addRole(READER, READERS);
        server.getServer().setSecurityManager(security);
        server.start();
        factory = new ActiveMQConnectionFactory(server.getVmURL());
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return factory;
    }

    @Override
    public void close() {
        factory.close();
        server.stop();
    }
}

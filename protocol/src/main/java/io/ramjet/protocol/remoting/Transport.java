package io.ramjet.protocol.remoting;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket layer under a client's or a server's connections: Netty's native epoll transport
 * where it loads (Linux on x86_64 or aarch64, a temporary directory it may load a library from,
 * no {@code -Dio.netty.transport.noNative=true}), else Java's NIO. Both carry the same frames; a
 * client on one talks to a server on the other. Epoll wakes an I/O thread with fewer system calls
 * than NIO's selector, so a round trip and a synchronous send are shorter on it (docs/benchmarks.md
 * has the figures). Artemis's acceptors and connectors make the same choice ({@code useEpoll},
 * default true).
 */
public enum Transport {

    NIO {
        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        public Class<? extends SocketChannel> socketChannel() {
            return NioSocketChannel.class;
        }

        @Override
        public Class<? extends ServerSocketChannel> serverSocketChannel() {
            return NioServerSocketChannel.class;
        }
    },

    EPOLL {
        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        public Class<? extends SocketChannel> socketChannel() {
            return EpollSocketChannel.class;
        }

        @Override
        public Class<? extends ServerSocketChannel> serverSocketChannel() {
            return EpollServerSocketChannel.class;
        }
    };

    private static final Logger LOG = LoggerFactory.getLogger(Transport.class);
    /** How epoll names the system call before the system's message: "bind(..) failed with error(-98): ". */
    private static final Pattern NATIVE_CALL = Pattern.compile("^\\w+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ");

    /** Makes the I/O threads of an event loop group of this transport. */
    public abstract IoHandlerFactory ioHandlerFactory();

    /** The channel class of a connection on those threads. */
    public abstract Class<? extends SocketChannel> socketChannel();

    /** The channel class of a listening socket on those threads. */
    public abstract Class<? extends ServerSocketChannel> serverSocketChannel();

    /**
     * The system's message of a socket failure as NIO gives it ("Address already in use"), without
     * the system call epoll names before it.
     */
    public static String systemMessage(Throwable failure) {
        String message = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        return NATIVE_CALL.matcher(message).replaceFirst("");
    }

    /**
     * {@link #EPOLL} if {@code nativeAllowed} and it loads here, else {@link #NIO}; why epoll did
     * not load is logged at debug level (it is the expected case off Linux).
     */
    public static Transport choose(boolean nativeAllowed) {
        if (!nativeAllowed) {
            return NIO;
        }
        try {
            if (Epoll.isAvailable()) {
                return EPOLL;
            }
            LOG.debug("native epoll transport not available, using NIO", Epoll.unavailabilityCause());
        } catch (LinkageError e) { // Netty's epoll classes left out of the class path
            LOG.debug("native epoll transport not on the class path, using NIO", e);
        }
        return NIO;
    }
}

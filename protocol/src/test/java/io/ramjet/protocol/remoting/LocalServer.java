package io.ramjet.protocol.remoting;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/** A plain Netty server for the remoting client's tests, on an ephemeral port of 127.0.0.1. */
final class LocalServer {

    private LocalServer() {
    }

    /** Binds a server whose every accepted channel {@code accepted} sets up; its {@code host:port}. */
    static String bind(EventLoopGroup group, Consumer<SocketChannel> accepted) throws InterruptedException {
        Channel server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        accepted.accept(channel);
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    }
}

package io.ramjet.controller;

import org.apache.ratis.client.ClientFactory;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.grpc.server.GrpcServicesImpl;
import org.apache.ratis.netty.NettyFactory;
import org.apache.ratis.netty.server.NettyRpcService;
import org.apache.ratis.protocol.AdminAsynchronousProtocol;
import org.apache.ratis.protocol.AdminProtocol;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerRpc;
import org.apache.ratis.server.ServerFactory;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.leader.LogAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The controllers' Ratis transport without Ratis's administrative requests: Ratis's Netty RPC, or,
 * when the parameters carry the group's mutual TLS ({@link ControllerTls}), Ratis's gRPC RPC on
 * which every connection must present a certificate the group trusts.
 * The controller group's membership is fixed by configuration and it never asks itself for a
 * membership change, a leader transfer, a snapshot, a pause of elections, nor for group
 * information or the removal of a group; Ratis serves those to anyone who reaches the port, with
 * no authentication, so a controller refuses every one of them ({@link #REFUSED}) before Ratis
 * sees it. What the controller protocol asks travels as client requests, signed with the
 * cluster secret ({@link ControllerSignature}). Raft's own server-to-server requests (votes,
 * appended entries, snapshots) go through unchanged: with mutual TLS only a holder of a trusted
 * certificate can send them; on Netty they are unauthenticated (an entry without the signature is
 * not applied, a snapshot without it not loaded), so that port must be reachable by controllers
 * and brokers only. Ratis makes this type from its class name ({@link RpcType#valueOf}), so it has a
 * public constructor and no state; the first refusal a controller makes is logged, later ones
 * are not.
 */
public final class ControllerRpc implements RpcType {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerRpc.class);

    /** The names of every method of Ratis's administrative protocols, synchronous and asynchronous. */
    static final Set<String> REFUSED = Stream.of(AdminProtocol.class, AdminAsynchronousProtocol.class)
            .flatMap(protocol -> Arrays.stream(protocol.getMethods())).map(Method::getName)
            .collect(Collectors.toUnmodifiableSet());

    public ControllerRpc() {
    }

    @Override
    public String name() {
        return ControllerRpc.class.getName();
    }

    @Override
    public RpcFactory newFactory(Parameters parameters) {
        return ControllerTls.configured(parameters) ? new TlsFactory(new GrpcFactory(parameters), this)
                : new Factory(new NettyFactory(parameters), this);
    }

    private record TlsFactory(GrpcFactory grpc, RpcType type) implements ServerFactory, ClientFactory {

        @Override
        public RpcType getRpcType() {
            return type;
        }

        @Override
        public LogAppender newLogAppender(RaftServer.Division server, LeaderState state, FollowerInfo follower) {
            return grpc.newLogAppender(server, state, follower);
        }

        @Override
        public RaftServerRpc newRaftServerRpc(RaftServer server) {
            return GrpcServicesImpl.newBuilder().setServer(withoutAdministration(server))
                    .setCustomizer(GrpcServices.Customizer.getDefaultInstance())
                    .setServerTlsConfig(grpc.getServerTlsConfig())
                    .setClientTlsConfig(grpc.getClientTlsConfig())
                    .setAdminTlsConfig(grpc.getAdminTlsConfig())
                    .build();
        }

        @Override
        public RaftClientRpc newRaftClientRpc(ClientId clientId, RaftProperties properties) {
            return grpc.newRaftClientRpc(clientId, properties);
        }
    }

    private record Factory(NettyFactory netty, RpcType type) implements ServerFactory, ClientFactory {

        @Override
        public RpcType getRpcType() {
            return type;
        }

        @Override
        public RaftServerRpc newRaftServerRpc(RaftServer server) {
            return NettyRpcService.newBuilder().setServer(withoutAdministration(server)).build();
        }

        @Override
        public RaftClientRpc newRaftClientRpc(ClientId clientId, RaftProperties properties) {
            return netty.newRaftClientRpc(clientId, properties);
        }
    }

    /** The server as the network sees it: every administrative request refused, the rest its own. */
    private static RaftServer withoutAdministration(RaftServer server) {
        AtomicBoolean logged = new AtomicBoolean();
        return (RaftServer) Proxy.newProxyInstance(RaftServer.class.getClassLoader(), new Class<?>[] {RaftServer.class},
                (proxy, method, args) -> {
                    if (REFUSED.contains(method.getName())) {
                        RaftException refused = new RaftException("controller " + server.getId() + " refuses Ratis's "
                                + method.getName() + ": the controller group takes no administrative request");
                        if (logged.compareAndSet(false, true)) {
                            LOG.warn("{} (later refusals are not logged)", refused.getMessage());
                        }
                        if (CompletableFuture.class.isAssignableFrom(method.getReturnType())) {
                            return CompletableFuture.failedFuture(refused);
                        }
                        throw refused;
                    }
                    try {
                        return method.invoke(server, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

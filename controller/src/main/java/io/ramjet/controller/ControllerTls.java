package io.ramjet.controller;

import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The controller group's mutual TLS, as PEM files: the certificate chain (leaf first) and PKCS#8
 * private key this member presents, and the certificates it trusts (the cluster's CA). With it the
 * controllers speak Ratis's gRPC transport, on which every connection, between controllers and from
 * their clients, must present a certificate the trusted ones sign; a connection that does not fails
 * its TLS handshake before Ratis reads a byte. A client verifies that a controller's certificate
 * names the host it dialed (its subject alternative names hold the peers' hosts or addresses).
 *
 * @param certificateChain PEM certificate chain this member presents, leaf first
 * @param privateKey       PEM PKCS#8 private key of that certificate, unencrypted
 * @param trusted          PEM certificates trusted to sign the others' certificates
 */
public record ControllerTls(Path certificateChain, Path privateKey, Path trusted) {

    public ControllerTls {
        Objects.requireNonNull(certificateChain, "controller TLS certificate chain");
        Objects.requireNonNull(privateKey, "controller TLS private key");
        Objects.requireNonNull(trusted, "controller TLS trusted certificates");
    }

    /**
     * The TLS of three settings named {@code names} (certificate, key, trust) for messages, or null
     * when none is set.
     *
     * @throws IllegalArgumentException when some but not all are set
     */
    public static ControllerTls of(Path certificateChain, Path privateKey, Path trusted, String... names) {
        if (certificateChain == null && privateKey == null && trusted == null) {
            return null;
        }
        if (certificateChain == null || privateKey == null || trusted == null) {
            throw new IllegalArgumentException("controller TLS needs " + String.join(", ", names)
                    + ": all three or none");
        }
        return new ControllerTls(certificateChain, privateKey, trusted);
    }

    /**
     * Ratis's parameters for this TLS on every service: server-to-server, client and administration.
     *
     * @throws IllegalArgumentException when a file is not readable
     */
    Parameters parameters() {
        for (Path file : new Path[] {certificateChain, privateKey, trusted}) {
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("controller TLS file " + file + " is not readable");
            }
        }
        GrpcTlsConfig tls = new GrpcTlsConfig(privateKey.toFile(), certificateChain.toFile(), trusted.toFile(), true);
        Parameters parameters = new Parameters();
        GrpcConfigKeys.Server.setTlsConf(parameters, tls);
        GrpcConfigKeys.Client.setTlsConf(parameters, tls);
        GrpcConfigKeys.Admin.setTlsConf(parameters, tls);
        return parameters;
    }

    /** Whether {@code parameters} carry a controller TLS configuration (the gRPC transport), or not (Netty). */
    static boolean configured(Parameters parameters) {
        return parameters != null && GrpcConfigKeys.Server.tlsConf(parameters) != null;
    }
}

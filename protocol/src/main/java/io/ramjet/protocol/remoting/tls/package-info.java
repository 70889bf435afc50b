/**
 * TLS settings of the remoting transport: the key material an endpoint presents
 * ({@link io.ramjet.protocol.remoting.tls.KeyMaterial}), the certificates it trusts
 * ({@link io.ramjet.protocol.remoting.tls.TrustMaterial}), and the client's and the server's
 * choices built from them ({@link io.ramjet.protocol.remoting.tls.ClientTls},
 * {@link io.ramjet.protocol.remoting.tls.ServerTls}). Always the JDK's TLS engine, TLSv1.3 and
 * TLSv1.2 only. Depends on nothing else of the remoting package.
 */
package io.ramjet.protocol.remoting.tls;

/**
 * Who may use the broker and what each may do. Login ({@link io.ramjet.server.broker.security.Login}):
 * users with salted slow password hashes from a users file, or a JAAS entry, giving an
 * {@link io.ramjet.server.broker.security.Identity} with roles from a roles file. Authorization
 * ({@link io.ramjet.server.broker.security.Authorizer}): roles allowed an
 * {@link io.ramjet.server.broker.security.Operation} on destination patterns by a permissions file.
 * The wire side (AUTHENTICATE, the request gate, the processors' checks) is in {@code processor}.
 */
package io.ramjet.server.broker.security;

/**
 * Who may use the broker: users with salted slow password hashes from a users file,
 * AUTHENTICATE, and the request gate that refuses an unauthenticated connection when
 * anonymous access is off. Authorization, TLS and NameServer trust are not here yet (issue 15).
 */
package io.ramjet.server.broker.security;

/**
 * Who may use the broker: users with salted slow password hashes from a users file. The wire
 * side (AUTHENTICATE and the request gate) is {@code processor.Authentication}. Authorization,
 * TLS and NameServer trust are not here yet (issue 15).
 */
package io.ramjet.server.broker.security;

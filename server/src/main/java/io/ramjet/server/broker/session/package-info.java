/**
 * Client connections as the domain sees them ({@link io.ramjet.server.broker.session.ClientSession})
 * and what lives and dies with one: client-id claims and temporary destinations.
 */
package io.ramjet.server.broker.session;

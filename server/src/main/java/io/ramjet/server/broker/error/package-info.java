/**
 * How the broker's domain refuses a request: {@link io.ramjet.server.broker.error.BrokerException}
 * with a {@link io.ramjet.server.broker.error.Refusal} kind. Only {@code processor} turns a kind
 * into the status a client sees. {@link io.ramjet.server.broker.error.NetworkException} is the
 * broker's own word for a port it cannot listen on or a master that does not answer.
 */
package io.ramjet.server.broker.error;

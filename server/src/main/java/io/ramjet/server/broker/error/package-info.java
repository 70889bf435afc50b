/**
 * How the broker's domain refuses a request: {@link io.ramjet.server.broker.error.BrokerException}
 * with a {@link io.ramjet.server.broker.error.Refusal} kind. Only {@code processor} turns a kind
 * into the status a client sees.
 */
package io.ramjet.server.broker.error;

/**
 * The broker package that speaks the wire: one processor per command reads the request, asks
 * the domain (in its own types and those of {@code io.ramjet.model}) and writes the answer;
 * {@code Refusals} maps every domain refusal to its status in one table;
 * {@code ConnectionSession} adapts a transport connection to a {@code ClientSession}. Beside it
 * only {@code assembly}, which wires the transport (the remoting server and its registrations,
 * the NameServer registration, the slave's link to its master), names wire types; the root
 * package, {@code Broker} and {@code BrokerConfig}, names none ({@code ArchitectureTest}).
 */
package io.ramjet.server.broker.processor;

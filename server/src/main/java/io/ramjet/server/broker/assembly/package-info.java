/**
 * What wires the transport to the broker's domain, on which threads: the remoting server and
 * which processor serves which command ({@code RequestProcessors}), the append lane sends run on,
 * replication ({@code ReplicationSide}, {@code SlaveJoin}), the NameServer registration, the
 * operator's side (metrics, commands, console) and the console's cluster view. With
 * {@code processor}, the only broker package that names wire types; {@code Broker} in the root
 * package makes these parts and orders their start and stop. The configuration comes in as
 * {@link io.ramjet.server.broker.assembly.AssemblyConfig}, so nothing here names the root package.
 */
package io.ramjet.server.broker.assembly;

package io.ramjet.controller;

import io.ramjet.controller.ControllerRequest.AlterInSyncSet;
import io.ramjet.controller.ControllerRequest.ElectMaster;
import io.ramjet.controller.ControllerRequest.Election;
import io.ramjet.controller.ControllerRequest.GetReplicaInfo;
import io.ramjet.controller.ControllerRequest.Heartbeat;
import io.ramjet.controller.ControllerRequest.MasterLost;
import io.ramjet.controller.ControllerRequest.MasterRestart;
import io.ramjet.controller.ControllerRequest.RegisterBroker;
import io.ramjet.model.EpochEntry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The controller's bytes: requests (carried as Ratis client messages and, for writes, as Raft log
 * entries), replies, and the snapshot file. Big-endian {@link DataOutput} encoding, strings as
 * modified UTF-8 with a 2-byte length, collections as a 4-byte count then their elements in
 * ascending key order; {@code ControllerCodecGoldenBytesTest} pins every layout.
 *
 * <pre>
 * request  = kind:u8 brokerName:utf fields...
 *   1 RegisterBroker  brokerId:i64 address:utf maxOffset:i64
 *   2 Heartbeat       brokerId:i64 maxOffset:i64
 *   3 AlterInSyncSet  masterId:i64 epoch:i32 count:i32 brokerId:i64*
 *   4 ElectMaster     unclean:bool
 *   5 GetReplicaInfo
 *   6 Election        expectedEpoch:i32 masterAlive:bool unclean:bool count:i32 (brokerId:i64 maxOffset:i64)*
 *   7 MasterLost      brokerId:i64 maxOffset:i64 epoch:i32
 *   8 MasterRestart   brokerId:i64 address:utf maxOffset:i64 expectedEpoch:i32 count:i32 (brokerId:i64 maxOffset:i64)*
 * reply    = status:u8 (code - 170) replicaInfo
 * replicaInfo = brokerName:utf count:i32 (brokerId:i64 address:utf)* masterId:i64
 *               count:i32 (epoch:i32 startOffset:i64)* count:i32 inSyncId:i64*
 * snapshot = version:i32 (1) count:i32 replicaInfo*
 * </pre>
 *
 * Log entries written by one version must stay readable by the next: change a layout only by
 * adding a kind.
 */
final class ControllerCodec {

    private static final int SNAPSHOT_VERSION = 1;
    private static final int STATUS_BASE = 170;

    private ControllerCodec() {
    }

    static byte[] encode(ControllerRequest request) {
        return write(out -> {
            out.writeByte(kindOf(request));
            out.writeUTF(request.brokerName());
            if (request instanceof RegisterBroker r) {
                writeRegistration(out, r);
            } else if (request instanceof Heartbeat h) {
                out.writeLong(h.brokerId());
                out.writeLong(h.maxOffset());
            } else if (request instanceof AlterInSyncSet a) {
                out.writeLong(a.masterId());
                out.writeInt(a.epoch());
                writeIds(out, new TreeSet<>(a.inSync()));
            } else if (request instanceof ElectMaster e) {
                out.writeBoolean(e.unclean());
            } else if (request instanceof MasterLost m) {
                out.writeLong(m.brokerId());
                out.writeLong(m.maxOffset());
                out.writeInt(m.epoch());
            } else if (request instanceof Election e) {
                out.writeInt(e.expectedEpoch());
                out.writeBoolean(e.masterAlive());
                out.writeBoolean(e.unclean());
                writeOffsets(out, e.aliveOffsets());
            } else if (request instanceof MasterRestart m) {
                writeRegistration(out, m.registration());
                out.writeInt(m.expectedEpoch());
                writeOffsets(out, m.aliveOffsets());
            }
            // a GetReplicaInfo is its broker name alone
        });
    }

    private static int kindOf(ControllerRequest request) {
        if (request instanceof RegisterBroker) {
            return 1;
        } else if (request instanceof Heartbeat) {
            return 2;
        } else if (request instanceof AlterInSyncSet) {
            return 3;
        } else if (request instanceof ElectMaster) {
            return 4;
        } else if (request instanceof GetReplicaInfo) {
            return 5;
        } else if (request instanceof Election) {
            return 6;
        } else if (request instanceof MasterLost) {
            return 7;
        }
        return 8; // MasterRestart, the last kind of the sealed interface
    }

    static ControllerRequest decodeRequest(byte[] bytes) {
        return read(bytes, in -> {
            int kind = in.readUnsignedByte();
            String brokerName = in.readUTF();
            return switch (kind) {
                case 1 -> new RegisterBroker(brokerName, in.readLong(), in.readUTF(), in.readLong());
                case 2 -> new Heartbeat(brokerName, in.readLong(), in.readLong());
                case 3 -> new AlterInSyncSet(brokerName, in.readLong(), in.readInt(), readIds(in));
                case 4 -> new ElectMaster(brokerName, in.readBoolean());
                case 5 -> new GetReplicaInfo(brokerName);
                case 6 -> new Election(brokerName, in.readInt(), in.readBoolean(), in.readBoolean(), readOffsets(in));
                case 7 -> new MasterLost(brokerName, in.readLong(), in.readLong(), in.readInt());
                case 8 -> new MasterRestart(new RegisterBroker(brokerName, in.readLong(), in.readUTF(), in.readLong()),
                        in.readInt(), readOffsets(in));
                default -> throw new IllegalArgumentException("unknown controller request kind " + kind);
            };
        });
    }

    static byte[] encode(ControllerReply reply) {
        return write(out -> {
            out.writeByte(reply.status().code() - STATUS_BASE);
            writeInfo(out, reply.info());
        });
    }

    static ControllerReply decodeReply(byte[] bytes) {
        return read(bytes, in -> new ControllerReply(
                ControllerStatus.ofCode(STATUS_BASE + in.readUnsignedByte()), readInfo(in)));
    }

    static byte[] encodeSnapshot(Collection<ReplicaInfo> groups) {
        return write(out -> {
            out.writeInt(SNAPSHOT_VERSION);
            out.writeInt(groups.size());
            for (ReplicaInfo group : groups) {
                writeInfo(out, group);
            }
        });
    }

    static List<ReplicaInfo> decodeSnapshot(byte[] bytes) {
        return read(bytes, in -> {
            int version = in.readInt();
            if (version != SNAPSHOT_VERSION) {
                throw new IllegalArgumentException("unknown controller snapshot version " + version);
            }
            int count = in.readInt();
            List<ReplicaInfo> groups = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                groups.add(readInfo(in));
            }
            return groups;
        });
    }

    private static void writeInfo(DataOutput out, ReplicaInfo info) throws IOException {
        out.writeUTF(info.brokerName());
        out.writeInt(info.members().size());
        for (Map.Entry<Long, String> member : info.members().entrySet()) {
            out.writeLong(member.getKey());
            out.writeUTF(member.getValue());
        }
        out.writeLong(info.masterId());
        out.writeInt(info.history().entries().size());
        for (EpochEntry entry : info.history().entries()) {
            out.writeInt(entry.epoch());
            out.writeLong(entry.startOffset());
        }
        writeIds(out, info.inSync());
    }

    private static ReplicaInfo readInfo(DataInput in) throws IOException {
        String brokerName = in.readUTF();
        int memberCount = in.readInt();
        SortedMap<Long, String> members = new TreeMap<>();
        for (int i = 0; i < memberCount; i++) {
            members.put(in.readLong(), in.readUTF());
        }
        long masterId = in.readLong();
        int historyCount = in.readInt();
        List<EpochEntry> history = new ArrayList<>(historyCount);
        for (int i = 0; i < historyCount; i++) {
            history.add(new EpochEntry(in.readInt(), in.readLong()));
        }
        return new ReplicaInfo(brokerName, members, masterId, new EpochHistory(history), readIds(in));
    }

    private static void writeIds(DataOutput out, SortedSet<Long> ids) throws IOException {
        out.writeInt(ids.size());
        for (long id : ids) {
            out.writeLong(id);
        }
    }

    private static SortedSet<Long> readIds(DataInput in) throws IOException {
        int count = in.readInt();
        SortedSet<Long> ids = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            ids.add(in.readLong());
        }
        return ids;
    }

    private static void writeRegistration(DataOutput out, RegisterBroker registration) throws IOException {
        out.writeLong(registration.brokerId());
        out.writeUTF(registration.address());
        out.writeLong(registration.maxOffset());
    }

    private static void writeOffsets(DataOutput out, Map<Long, Long> offsets) throws IOException {
        out.writeInt(offsets.size());
        for (Map.Entry<Long, Long> entry : offsets.entrySet()) {
            out.writeLong(entry.getKey());
            out.writeLong(entry.getValue());
        }
    }

    private static Map<Long, Long> readOffsets(DataInput in) throws IOException {
        int count = in.readInt();
        Map<Long, Long> offsets = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            offsets.put(in.readLong(), in.readLong());
        }
        return offsets;
    }

    private interface Writer {
        void write(DataOutput out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInput in) throws IOException;
    }

    private static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory", e);
        }
        return bytes.toByteArray();
    }

    /** Decodes all of {@code bytes}; trailing bytes mean a layout mismatch and are refused. */
    private static <T> T read(byte[] bytes, Reader<T> reader) {
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        try (DataInputStream in = new DataInputStream(stream)) {
            T value = reader.read(in);
            if (stream.available() > 0) {
                throw new IllegalArgumentException(stream.available() + " bytes left after a controller message");
            }
            return value;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated controller message", e);
        }
    }
}

package io.ramjet.server.broker.processor;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.command.ChunkReadRequest;
import io.ramjet.protocol.command.ChunkWriteRequest;
import io.ramjet.protocol.command.ChunkWriteResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.log.DiskGuard;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.nio.ByteBuffer;

/**
 * LARGE_CHUNK_WRITE and LARGE_CHUNK_READ: a large message's body, one chunk per request.
 *
 * <p>A written chunk is appended as a CHUNK record without waiting for the disk: the SEND that
 * names it is forced after it, and a force covers the whole log below it. Writing asks for the
 * right to send to the destination (and to create it, if the SEND would), as the SEND does; the
 * chunk's upload is held open ({@link OpenUploads}) until its SEND or the connection's end. The
 * chunk goes from the pooled buffer it arrived in ({@link Frame#releasePooledBody}) into the
 * CommitLog, never through the heap.
 *
 * <p>Reading asks for the right to consume or to browse the destination named, and the chunk must
 * belong to the upload named: the upload id is random and travels only in the message record's
 * chunk table, so a reader reaches only chunks of messages it was handed. The answer's body is a
 * copy of the chunk in a pooled direct buffer of the connection, not a view of the mapped file,
 * so retention may delete the segment while the answer is written; the write releases it.
 */
public final class LargeChunkProcessor {

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final DiskGuard disk;
    private final Access access;
    private final OpenUploads uploads;
    private final LargeMessages large;

    public LargeChunkProcessor(MessageStore store, DestinationResolver destinations, DiskGuard disk, Access access,
                               OpenUploads uploads, LargeMessages large) {
        this.store = store;
        this.destinations = destinations;
        this.disk = disk;
        this.access = access;
        this.uploads = uploads;
        this.large = large;
    }

    public Frame write(RemotingConnection connection, Frame request) {
        ChunkWriteRequest chunk = request.header(ChunkWriteRequest.class);
        disk.checkSend();
        access.check(connection, Operation.SEND, chunk.destination());
        access.checkCreatedByUse(connection, destinations.table(), chunk.kind(), chunk.destination());
        if (chunk.uploadId() == 0) {
            throw new IllegalArgumentException("upload id 0");
        }
        MessageRecord record = new MessageRecord(RecordFlags.of(RecordType.CHUNK), chunk.destination(),
                chunk.index(), chunk.uploadId(), System.currentTimeMillis(), 0, 0, new byte[0], new byte[0]);
        ByteBuf body = request.body();
        AppendResult appended;
        try {
            appended = store.append(record, body.nioBuffer(body.readerIndex(), body.readableBytes()), false).join();
        } catch (StoreFullException e) {
            throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
        }
        ConnectionSession owner = new ConnectionSession(connection);
        uploads.chunkWritten(owner, chunk.uploadId(), appended.physicalOffset());
        if (!connection.isActive()) {
            // closed while the chunk was written: its close may have ended the uploads before this one began
            uploads.closed(owner);
        }
        return request.reply(new ChunkWriteResponse(appended.physicalOffset()));
    }

    public Frame read(RemotingConnection connection, Frame request) {
        ChunkReadRequest read = request.header(ChunkReadRequest.class);
        if (!access.allows(connection, Operation.CONSUME, read.destination())) {
            access.check(connection, Operation.BROWSE, read.destination());
        }
        MessageRecordView chunk = large.chunk(read.physicalOffset(), read.uploadId());
        ByteBuffer body = chunk.body();
        ByteBuf copy = connection.channel().alloc().directBuffer(body.remaining());
        copy.writeBytes(body);
        return request.reply(null, copy);
    }
}

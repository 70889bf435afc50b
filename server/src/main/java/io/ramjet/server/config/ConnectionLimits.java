package io.ramjet.server.config;

import io.ramjet.protocol.frame.FrameDescriptor;

/**
 * How many connections a server accepts and how much memory their frames may hold before and
 * after login.
 *
 * @param maxConnections           open connections in all
 * @param maxPerAddress            open connections from one remote address
 * @param maxUnauthenticated       open connections that have not authenticated, when login is required
 * @param frameLengthBeforeLogin   largest frame accepted before a connection authenticates, when login
 *                                 is required
 * @param frameMemory              bytes all partially received large frames may hold together
 * @param frameMemoryPerOwner      bytes those of one user (or, before login, one remote address) may hold
 * @param loginRequired            whether connections must authenticate (the limits before login apply)
 */
public record ConnectionLimits(int maxConnections, int maxPerAddress, int maxUnauthenticated,
                               int frameLengthBeforeLogin, long frameMemory, long frameMemoryPerOwner,
                               boolean loginRequired) {

    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final int DEFAULT_MAX_PER_ADDRESS = 1_000;
    public static final int DEFAULT_MAX_UNAUTHENTICATED = 1_000;
    public static final int DEFAULT_FRAME_LENGTH_BEFORE_LOGIN = 64 * 1024;
    public static final long DEFAULT_FRAME_MEMORY = 256L << 20;

    public static final ConnectionLimits DEFAULT = new ConnectionLimits(DEFAULT_MAX_CONNECTIONS,
            DEFAULT_MAX_PER_ADDRESS, DEFAULT_MAX_UNAUTHENTICATED, DEFAULT_FRAME_LENGTH_BEFORE_LOGIN,
            DEFAULT_FRAME_MEMORY, DEFAULT_FRAME_MEMORY / 4, false);

    public ConnectionLimits {
        if (maxConnections < 1 || maxPerAddress < 1 || maxUnauthenticated < 1) {
            throw new IllegalArgumentException("connection limits must be positive: " + maxConnections + ", "
                    + maxPerAddress + ", " + maxUnauthenticated);
        }
        if (frameLengthBeforeLogin < FrameDescriptor.FIXED_LENGTH) {
            throw new IllegalArgumentException("frame length before login " + frameLengthBeforeLogin);
        }
        if (frameMemory < 1 || frameMemoryPerOwner < 1) {
            throw new IllegalArgumentException("frame memory must be positive: " + frameMemory + ", "
                    + frameMemoryPerOwner);
        }
    }

    public ConnectionLimits withLoginRequired(boolean required) {
        return new ConnectionLimits(maxConnections, maxPerAddress, maxUnauthenticated, frameLengthBeforeLogin,
                frameMemory, frameMemoryPerOwner, required);
    }
}

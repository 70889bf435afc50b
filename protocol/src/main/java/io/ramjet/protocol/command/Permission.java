package io.ramjet.protocol.command;

/** Permission bits of a destination on one broker (RocketMQ's values). */
public final class Permission {

    public static final int WRITE = 2;
    public static final int READ = 4;
    public static final int READ_WRITE = READ | WRITE;

    private Permission() {
    }

    public static boolean isReadable(int permissions) {
        return (permissions & READ) != 0;
    }

    public static boolean isWritable(int permissions) {
        return (permissions & WRITE) != 0;
    }
}

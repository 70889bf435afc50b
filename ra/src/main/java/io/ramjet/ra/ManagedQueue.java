package io.ramjet.ra;

import jakarta.jms.Queue;
import java.io.Serializable;
import java.util.Objects;

/**
 * A queue configured in the application server as an administered object (JavaBean property
 * {@code name}); the Ramjet client takes any {@code Queue} by its name.
 */
public class ManagedQueue implements Queue, Serializable {

    private static final long serialVersionUID = 1L;

    private String name;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public String getQueueName() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ManagedQueue q && Objects.equals(q.name, name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }

    @Override
    public String toString() {
        return "queue " + name;
    }
}

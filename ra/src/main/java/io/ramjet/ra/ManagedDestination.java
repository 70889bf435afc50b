package io.ramjet.ra;

import java.io.Serializable;
import java.util.Objects;

/**
 * A destination configured in the application server as an administered object, by its
 * JavaBean property {@code name}; the Ramjet client takes any queue or topic by its name.
 */
abstract class ManagedDestination implements Serializable {

    private static final long serialVersionUID = 1L;

    private String name;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && Objects.equals(((ManagedDestination) o).name, name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }
}

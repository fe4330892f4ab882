package io.schedext.plugins.volumezone;

import java.util.Set;

/**
 * One zone or region label of a bound volume of the pod.
 *
 * @param pvName the volume's name
 * @param key the label key (GA or beta)
 * @param values the allowed values (the label split at {@code __})
 */
record PvTopology(String pvName, String key, Set<String> values) {}

package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.PodInfo;
import java.util.List;

/**
 * A node the preemptor would fit on once the victims are evicted.
 *
 * @param name the node name
 * @param victims the pods to evict, most important first; never empty
 * @param numPdbViolations how many of the victims violate a PodDisruptionBudget
 */
record Candidate(String name, List<PodInfo> victims, int numPdbViolations) {}

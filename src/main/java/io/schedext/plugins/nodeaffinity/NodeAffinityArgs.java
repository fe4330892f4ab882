package io.schedext.plugins.nodeaffinity;

import io.fabric8.kubernetes.api.model.NodeAffinity;

/**
 * The NodeAffinity plugin's arguments, as upstream's {@code NodeAffinityArgs}.
 *
 * @param addedAffinity node affinity the scheduler applies to every pod on top of the pod's own:
 *     its required terms must match (Filter) and its preferred terms add their weights (Score);
 *     null means none
 */
public record NodeAffinityArgs(NodeAffinity addedAffinity) {}

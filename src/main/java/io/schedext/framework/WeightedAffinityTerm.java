package io.schedext.framework;

/**
 * A preferred pod (anti-)affinity term and its weight.
 *
 * @param term the compiled term
 * @param weight the weight, 1–100
 */
public record WeightedAffinityTerm(AffinityTerm term, int weight) {}

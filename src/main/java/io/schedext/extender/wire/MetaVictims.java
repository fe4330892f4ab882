package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Victims on one node named by UID ({@code nodeCacheCapable: true}, and every reply).
 *
 * @param pods the pods to evict
 * @param numPdbViolations how many of them violate a PodDisruptionBudget
 */
@JsonPropertyOrder({"Pods", "NumPDBViolations"})
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record MetaVictims(
    @JsonProperty("Pods") List<MetaPod> pods,
    @JsonProperty("NumPDBViolations") long numPdbViolations) {}

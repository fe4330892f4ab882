package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * The preempt call: the preemptor and the victims kube-scheduler proposes per node, as full pods or
 * as UIDs.
 *
 * @param pod the preemptor
 * @param nodeNameToVictims proposed victims as pods ({@code nodeCacheCapable: false}), or null
 * @param nodeNameToMetaVictims proposed victims as UIDs ({@code nodeCacheCapable: true}), or null
 */
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderPreemptionArgs(
    @JsonProperty("Pod") Pod pod,
    @JsonProperty("NodeNameToVictims") Map<String, Victims> nodeNameToVictims,
    @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {}

package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * The body of filter and prioritize calls ({@code k8s.io/kube-scheduler/extender/v1.ExtenderArgs}):
 * the pod and either full nodes ({@code nodeCacheCapable: false}) or node names ({@code true}).
 *
 * @param pod the pod being scheduled
 * @param nodes candidate nodes as objects, or null
 * @param nodeNames candidate node names, or null
 */
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderArgs(
    @JsonProperty("Pod") @JsonDeserialize(using = RecentPod.Deserializer.class) Pod pod,
    @JsonProperty("Nodes") NodeList nodes,
    @JsonProperty("NodeNames") @JsonDeserialize(using = NodeNamesDeserializer.class)
        List<String> nodeNames) {}

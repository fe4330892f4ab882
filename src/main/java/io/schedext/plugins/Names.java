package io.schedext.plugins;

/** The registered names of every in-tree plugin, in one place. */
public final class Names {

  public static final String PRIORITY_SORT = "PrioritySort";
  public static final String SCHEDULING_GATES = "SchedulingGates";
  public static final String NODE_UNSCHEDULABLE = "NodeUnschedulable";
  public static final String NODE_NAME = "NodeName";
  public static final String TAINT_TOLERATION = "TaintToleration";
  public static final String NODE_AFFINITY = "NodeAffinity";
  public static final String NODE_PORTS = "NodePorts";
  public static final String NODE_RESOURCES_FIT = "NodeResourcesFit";
  public static final String NODE_RESOURCES_BALANCED_ALLOCATION = "NodeResourcesBalancedAllocation";
  public static final String VOLUME_RESTRICTIONS = "VolumeRestrictions";
  public static final String EBS_LIMITS = "EBSLimits";
  public static final String GCE_PD_LIMITS = "GCEPDLimits";
  public static final String NODE_VOLUME_LIMITS = "NodeVolumeLimits";
  public static final String AZURE_DISK_LIMITS = "AzureDiskLimits";
  public static final String VOLUME_BINDING = "VolumeBinding";
  public static final String VOLUME_ZONE = "VolumeZone";
  public static final String POD_TOPOLOGY_SPREAD = "PodTopologySpread";
  public static final String INTER_POD_AFFINITY = "InterPodAffinity";
  public static final String DYNAMIC_RESOURCES = "DynamicResources";
  public static final String DEFAULT_PREEMPTION = "DefaultPreemption";
  public static final String IMAGE_LOCALITY = "ImageLocality";
  public static final String DEFAULT_BINDER = "DefaultBinder";
  public static final String SERVICE_AFFINITY = "ServiceAffinity";
  public static final String NODE_LABEL = "NodeLabel";
  public static final String SELECTOR_SPREAD = "SelectorSpread";

  private Names() {}
}

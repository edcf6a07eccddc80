// CloudNativePG's ScheduledBackup (postgresql.cnpg.io/v1), written from the operator's API
// reference (1.26 and later) for lib/dts-schema.js to walk, as cnpg-cluster.d.ts is: every field
// of its spec, with onlineConfiguration passed through unchecked (`any`).
import { IObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta";
import { ILocalObjectReference } from "./cnpg-cluster";

export interface IScheduledBackup {
    "apiVersion": "postgresql.cnpg.io/v1";
    "kind": "ScheduledBackup";
    "metadata"?: IObjectMeta;
    "spec": IScheduledBackupSpec;
}

export interface IScheduledBackupSpec {
    "suspend"?: boolean;
    "immediate"?: boolean;
    // Cron with a leading seconds field: "0 0 3 * * *" is every day at 03:00:00.
    "schedule": string;
    "cluster": ILocalObjectReference;
    "backupOwnerReference"?: "none" | "self" | "cluster";
    "target"?: "primary" | "prefer-standby";
    "method"?: "barmanObjectStore" | "volumeSnapshot" | "plugin";
    "pluginConfiguration"?: {
        "name": string;
        "parameters"?: { [key: string]: string; };
    };
    "online"?: boolean;
    "onlineConfiguration"?: any;
}

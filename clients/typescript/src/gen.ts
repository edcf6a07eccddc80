// Every generated message, enum and service of kahve.v1 (protobuf-es v2: `create(XSchema, init)`),
// re-exported so that applications import them from one place: "@kahve/client".
export * from "./gen/kahve/v1/engine_pb.js";
export * from "./gen/kahve/v1/errors_pb.js";
export * from "./gen/kahve/v1/fairness_pb.js";
export * from "./gen/kahve/v1/liars_dice_pb.js";
export * from "./gen/kahve/v1/matchmaking_pb.js";
export * from "./gen/kahve/v1/mexican_train_pb.js";
export * from "./gen/kahve/v1/okey101_pb.js";
export * from "./gen/kahve/v1/okey51_pb.js";
export * from "./gen/kahve/v1/okey_classic_pb.js";
export * from "./gen/kahve/v1/okey_laying_pb.js";
export * from "./gen/kahve/v1/okey_pb.js";
export * from "./gen/kahve/v1/rating_pb.js";
export * from "./gen/kahve/v1/scenario_pb.js";
export * from "./gen/kahve/v1/table_pb.js";

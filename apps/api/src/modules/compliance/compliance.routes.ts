const complianceRoutes = async () => {};
export default complianceRoutes;
